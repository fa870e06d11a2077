import type { Message } from "../core/index.js";
import type { ClearedResult, ClearingEntry, CompactionEntry, SessionEntry } from "./session-entries.js";
import { foldEntries } from "./session-model.js";

/**
 * Each clearing's stubs by call id, keyed by the clearing's id: the clearing entries among `entries`
 * and the clearings `base` carries for its kept copies.
 */
export function clearedResults(
  entries: readonly SessionEntry[],
  base: CompactionEntry | undefined,
): Map<string, Map<string, string>> {
  const stubs = new Map<string, Map<string, string>>();
  const add = (id: string, results: readonly ClearedResult[]) =>
    stubs.set(id, new Map(results.map((result) => [result.toolCallId, result.stub])));
  for (const carried of base?.clearings ?? []) add(carried.id, carried.results);
  for (const entry of entries) if (entry.type === "clearing") add(entry.id, entry.results);
  return stubs;
}

/** `message` with each tool result `stubOf` names holding only its stub (same call, same pairing). */
export function stubCleared(message: Message, stubOf: (toolCallId: string) => string | undefined): Message {
  if (message.role !== "tool") return message;
  let changed = false;
  const content = message.content.map((block) => {
    const stub = stubOf(block.toolCallId);
    if (stub === undefined) return block;
    changed = true;
    return { ...block, content: [{ type: "text" as const, text: stub }] };
  });
  return changed ? { role: "tool", content } : message;
}

/** One clearing in force: its entry (or, carried by a compaction, its id and results). */
export interface ClearingInForce {
  id: string;
  results: readonly ClearedResult[];
  /** The clearing entry, when the entries hold it (a carried one has none). */
  entry?: ClearingEntry;
}

/**
 * The clearings in force among `entries` (an active suffix or a whole file), oldest first, as the
 * session model defines them, and the latest `unclear` entry after the last of them, if any (what
 * pauses clearing).
 */
export function clearingsInForce(entries: readonly SessionEntry[]): {
  clearings: ClearingInForce[];
  cleared: Set<string>;
} {
  const view = foldEntries(entries).view();
  const base = view.base === undefined ? undefined : entries[view.base.position];
  const carried = base?.type === "compaction" ? (base.clearings ?? []) : [];
  const byId = new Map<string, ClearingInForce>();
  for (const clearing of carried) byId.set(clearing.id, { id: clearing.id, results: clearing.results });
  for (const entry of entries)
    if (entry.type === "clearing") byId.set(entry.id, { id: entry.id, results: entry.results, entry });
  const clearings = view.clearings.flatMap((id) => {
    const found = byId.get(id);
    return found === undefined ? [] : [found];
  });
  const cleared = new Set(
    clearings.flatMap((clearing) => clearing.results.map((result) => result.toolCallId)),
  );
  return { clearings, cleared };
}
