import { groupTurns } from "../compaction/group-turns.js";
import type {
  CompactionLedger,
  CompactionRecord,
  CompactionTrigger,
  EffectiveContext,
  Message,
  Turn,
} from "../core/index.js";
import { optional } from "../core/index.js";
import {
  blockParts,
  type CompactionEntry,
  composeCompactionSummary,
  type EffectiveTurnNumbers,
  effectiveTurnNumbers,
  isTurnStart,
  pinsInForce,
  replayEntries,
  type SessionEntry,
  survivingEntries,
} from "../session/index.js";

/** The compaction a fidelity check measures, and the contexts its probes are asked after. */
export interface FidelityTarget {
  trigger: CompactionTrigger;
  /** "provider/model" that wrote the summary. */
  model: string;
  /** True for a compaction made for the check (`--fresh`) and written nowhere. */
  fresh: boolean;
  summary: string;
  /** The whole compaction block as the model sees it: summary, restored facts, pinned notes. */
  block: string;
  /** The turns the summary stands for. */
  summarised: Turn[];
  /** The context the next request carries with this compaction in effect. */
  compacted: EffectiveContext;
  /** The context without this compaction: its summarised turns verbatim instead of the block. */
  full: EffectiveContext;
}

/**
 * The compaction in effect (where replay starts), or undefined when there is none. Its summarised
 * turns are the first `turnsSummarised` turns of the context replay gave just before it; an edited
 * summary ("/summary edit") stands for the turns of the compaction it replaced. The full context is
 * the one `/uncompact` would give: the compaction (and the ones it edited) undone.
 */
export function compactionInEffect(entries: readonly SessionEntry[]): FidelityTarget | undefined {
  const entry = survivingEntries(entries).compaction;
  if (entry === undefined) return undefined;
  const chain = editChain(entries, entry);
  const origin = chain.at(-1) as CompactionEntry;
  const before = replayEntries(entries.slice(0, entries.indexOf(origin))).context.messages;
  const compacted = replayEntries(entries).context;
  const undo = chain.map((undone, index) => ({
    type: "uncompact" as const,
    id: `fidelity-undo-${index}`,
    ts: entry.ts,
    compactionId: undone.id,
  }));
  return {
    trigger: entry.trigger,
    model: entry.model,
    fresh: false,
    summary: entry.summary,
    block: compacted.compaction?.summary ?? "",
    summarised: groupTurns(before).slice(0, origin.turnsSummarised),
    compacted,
    full: replayEntries([...entries, ...undo]).context,
  };
}

/** `entry`, then the compaction each edited summary replaced, back to one a model wrote. */
function editChain(entries: readonly SessionEntry[], entry: CompactionEntry): CompactionEntry[] {
  const byId = new Map(entries.map((candidate) => [candidate.id, candidate]));
  const chain = [entry];
  let current = entry;
  while (current.trigger === "edited" && current.editedFrom !== undefined) {
    const earlier = byId.get(current.editedFrom);
    if (earlier?.type !== "compaction" || chain.includes(earlier)) break;
    chain.push(earlier);
    current = earlier;
  }
  return chain;
}

/** What a new compaction of the session now would start from. */
export interface SummariserView {
  /** The context as a summariser sees it: the block in effect without the pinned notes. */
  context: EffectiveContext;
  /** The pinned notes in force, oldest first. */
  pins: string[];
  /** The context the next request carries now. */
  current: EffectiveContext;
  /** The turn numbers of the context's turns (for the turns a new compaction stands for). */
  numbering?: EffectiveTurnNumbers;
  /** The ledger of the compaction in effect, which a new one carries on. */
  previousLedger?: CompactionLedger;
}

/** The summariser's view of the session now, as `/compact` would take it. */
export function summariserView(entries: readonly SessionEntry[]): SummariserView {
  const current = replayEntries(entries).context;
  const base = survivingEntries(entries).compaction;
  const pins = pinsInForce(entries).map((pin) => pin.text);
  const numbering = numberingOf(entries, base);
  const extra = {
    ...optional("numbering", numbering),
    ...optional("previousLedger", base?.ledger),
  };
  if (base === undefined) return { context: { messages: current.messages }, pins, current, ...extra };
  const summary = composeCompactionSummary({
    summary: base.summary,
    ...optional("restored", base.restored),
  });
  return {
    context: { compaction: { type: "compaction", summary }, messages: current.messages },
    pins,
    current,
    ...extra,
  };
}

/** The turn numbers of the context replayed from the whole file (read whole, so they are counted). */
function numberingOf(
  entries: readonly SessionEntry[],
  base: CompactionEntry | undefined,
): EffectiveTurnNumbers | undefined {
  const start = base === undefined ? 0 : entries.indexOf(base);
  return effectiveTurnNumbers(entries.slice(start), entries.slice(0, start).filter(isTurnStart).length);
}

/** The target of a compaction made for the check: `record` with `kept` after it, written nowhere. */
export function freshTarget(
  view: SummariserView,
  record: CompactionRecord,
  summarised: readonly Turn[],
  kept: readonly Message[],
): FidelityTarget {
  const block = composeCompactionSummary({ ...blockParts(record), pins: view.pins });
  return {
    trigger: record.trigger,
    model: record.model,
    fresh: true,
    summary: record.summary,
    block,
    summarised: [...summarised],
    compacted: { compaction: { type: "compaction", summary: block }, messages: [...kept] },
    full: view.current,
  };
}
