import { open, readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { readSessionHeader } from "./read-session-header.js";
import { SESSION_INDEX_FILE } from "./session-index.js";

/** A session file and its header id. */
export interface SessionRef {
  path: string;
  id: string;
}

export type SessionRefMatch =
  | { type: "found"; session: SessionRef }
  | { type: "unknown"; known: SessionRef[] }
  | { type: "ambiguous"; candidates: SessionRef[] };

/**
 * Finds the session in `directory` whose header id or file name starts with `prefix`
 * (case-insensitive). Reads only each file's header line.
 */
export async function resolveSessionRef(directory: string, prefix: string): Promise<SessionRefMatch> {
  const wanted = prefix.trim().toLowerCase();
  const known = await readRefs(directory);
  const candidates = known.filter(
    (ref) => ref.id.toLowerCase().startsWith(wanted) || baseName(ref.path).toLowerCase().startsWith(wanted),
  );
  const [only] = candidates;
  if (wanted !== "" && candidates.length === 1 && only !== undefined) return { type: "found", session: only };
  if (wanted === "" || candidates.length === 0) return { type: "unknown", known };
  return { type: "ambiguous", candidates };
}

/**
 * The shortest prefix of each id, at least `minimum` characters, that no other id shares, so a
 * list can show short ids that `-r` accepts.
 */
export function uniqueIdPrefixes(ids: readonly string[], minimum = 8): string[] {
  // The longest prefix an id shares with any other is the one it shares with a neighbour in sorted
  // order (the next different id either side): one sort instead of comparing every pair, which took
  // most of the time `panto sessions` spent over 1,000 sessions.
  const sorted = [...new Set(ids)].sort();
  const shared = new Map<string, number>();
  for (let index = 0; index < sorted.length; index++) {
    const id = sorted[index] as string;
    const before = index > 0 ? commonPrefix(id, sorted[index - 1] as string) : 0;
    const after = index + 1 < sorted.length ? commonPrefix(id, sorted[index + 1] as string) : 0;
    shared.set(id, Math.max(before, after));
  }
  // Alone, an id needs no more than `minimum`; beside others, one character past what it shares.
  const needed = (id: string): number => (sorted.length > 1 ? (shared.get(id) ?? 0) + 1 : 0);
  return ids.map((id) => id.slice(0, Math.min(id.length, Math.max(minimum, needed(id)))));
}

function commonPrefix(a: string, b: string): number {
  let length = 0;
  while (length < a.length && length < b.length && a[length] === b[length]) length++;
  return length;
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

async function readRefs(directory: string): Promise<SessionRef[]> {
  let names: string[];
  try {
    names = await readdir(directory);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  const refs: SessionRef[] = [];
  for (const name of names
    .filter((entry) => entry.endsWith(".jsonl") && entry !== SESSION_INDEX_FILE)
    .sort()) {
    const path = join(directory, name);
    const id = await readHeaderId(path);
    if (id !== undefined) refs.push({ path, id });
  }
  return refs;
}

/** The header id, or undefined for a file that is empty or not a session (the listing reports those). */
async function readHeaderId(path: string): Promise<string | undefined> {
  try {
    const { size } = await stat(path);
    if (size === 0) return undefined;
    const file = await open(path, "r");
    try {
      return (await readSessionHeader(path, file, size)).header.id;
    } finally {
      await file.close();
    }
  } catch {
    return undefined;
  }
}
