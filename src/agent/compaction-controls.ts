import {
  type CompactionPreview,
  checkClaims,
  estimateContextTokens,
  estimateTokens,
  groupTurns,
  previewCompaction,
  withPinnedNotes,
  withTodoListNote,
} from "../compaction/index.js";
import type { CompactionRecord, EffectiveContext } from "../core/index.js";
import { optional } from "../core/index.js";
import { type CompactionEntry, composeCompactionSummary, type Session } from "../session/index.js";
import { todosInForce } from "../todos/index.js";
import type { AgentEvent } from "./agent-events.js";
import { effectiveNumbering } from "./compaction-numbering.js";

/** What the compaction controls need from the agent. */
export interface ControlDeps {
  session: Session;
  onEvent: (event: AgentEvent) => void;
  /**
   * The next request's size as the provider counts it (usage plus the estimate of what came after,
   * see reported-size.ts); without it, the local estimate of the effective context.
   */
  requestTokens?: () => number;
}

/** The size the controls report: the provider's count where the agent knows it. */
function sizeNow(deps: ControlDeps): number {
  return deps.requestTokens?.() ?? estimateContextTokens(deps.session.effectiveContext());
}

/**
 * The context a summariser sees: the messages, and the compaction in effect as its summary plus the
 * facts restored into it, but not the pinned notes (they travel separately, word for word).
 */
export function contextForSummariser(session: Session): EffectiveContext {
  const { messages } = session.effectiveContext();
  const base = session.activeCompaction();
  if (base === undefined) return { messages };
  const summary = composeCompactionSummary({
    summary: base.summary,
    ...optional("restored", base.restored),
  });
  return { compaction: { type: "compaction", summary }, messages };
}

/**
 * The compaction system prompt with the pinned notes in force announced, and the task list's
 * existence (it travels beside the summary too, so the summary need not restate it).
 */
export function summariserPrompt(session: Session, compactionPrompt: string): string {
  const pinned = withPinnedNotes(
    compactionPrompt,
    session.pins().map((pin) => pin.text),
  );
  return withTodoListNote(pinned, todosInForce(session).length > 0);
}

export interface PreviewDeps extends ControlDeps {
  keepVerbatimTokens: number;
  compactionPrompt: string;
  activeModel: string;
  compactionModel?: string;
  /** `/compact --preview --force`: plan as a forced compaction would. */
  force: boolean;
}

/** `/compact --preview`: the plan a manual compaction would follow now; nothing is sent or written. */
export function previewNow(deps: PreviewDeps, instructions: string | undefined): CompactionPreview {
  const preview = previewCompaction({
    context: contextForSummariser(deps.session),
    budgetTokens: deps.keepVerbatimTokens,
    systemPrompt: summariserPrompt(deps.session, deps.compactionPrompt),
    activeModel: deps.activeModel,
    force: deps.force,
    ...optional("instructions", instructions),
    ...optional("compactionModel", deps.compactionModel),
  });
  const tokensBefore = sizeNow(deps);
  deps.onEvent({ type: "compaction-preview", preview, tokensBefore });
  return preview;
}

export type UncompactOutcome =
  | {
      type: "undone";
      compaction: CompactionEntry;
      tokensBefore: number;
      tokensAfter: number;
      earlier: boolean;
    }
  | { type: "nothing-to-undo" };

/**
 * `/uncompact`: undoes the compaction in effect. The next request carries the context from before
 * it followed by every message written after it (replay drops its kept copies).
 */
export async function uncompactLatest(deps: ControlDeps): Promise<UncompactOutcome> {
  const { session } = deps;
  const compaction = session.activeCompaction();
  if (compaction === undefined) return { type: "nothing-to-undo" };
  const tokensBefore = sizeNow(deps);
  await session.appendUncompact(compaction.id);
  const tokensAfter = sizeNow(deps);
  const earlier = session.activeCompaction() !== undefined;
  deps.onEvent({
    type: "compaction-undone",
    compactionId: compaction.id,
    trigger: compaction.trigger,
    tokensBefore,
    tokensAfter,
    earlierCompaction: earlier,
  });
  return { type: "undone", compaction, tokensBefore, tokensAfter, earlier };
}

/** `/pin TEXT`: returns the note's number in the list. */
export async function pinNote(deps: ControlDeps, text: string): Promise<number> {
  await deps.session.appendPin(text);
  const pins = deps.session.pins().map((pin) => pin.text);
  deps.onEvent({ type: "pinned", number: pins.length, text, pins });
  return pins.length;
}

/** `/unpin N` (1-based, as `/pins` numbers them): the removed note's text, or undefined when there is no note N. */
export async function unpinNote(deps: ControlDeps, number: number): Promise<string | undefined> {
  const pin = deps.session.pins()[number - 1];
  if (pin === undefined) return undefined;
  await deps.session.appendUnpin(pin.id);
  const pins = deps.session.pins().map((note) => note.text);
  deps.onEvent({ type: "unpinned", number, text: pin.text, pins });
  return pin.text;
}

/** The record part of a compaction entry (what a new compaction entry is written from). */
export function recordOf(entry: CompactionEntry): CompactionRecord {
  const { type: _type, id: _id, ts: _ts, keptMessages: _kept, pins: _pins, ...record } = entry;
  return record;
}

export type EditOutcome =
  /** `tokensBefore`, `tokensAfter`: the next request's size before and after, as `compaction` events give it. */
  | { type: "edited"; compaction: CompactionEntry; tokensBefore: number; tokensAfter: number }
  | { type: "no-summary" }
  | { type: "unchanged" }
  | { type: "empty" };

/**
 * `/summary edit`: stores `text` as a new compaction entry (trigger "edited") that carries the same
 * restored facts and copies of the same messages, so the effective context changes only in the
 * summary. No model call.
 */
export async function editSummary(deps: ControlDeps, text: string): Promise<EditOutcome> {
  const { session } = deps;
  const base = session.activeCompaction();
  if (base === undefined) return { type: "no-summary" };
  const summary = text.trim();
  if (summary === "") return { type: "empty" };
  if (summary === base.summary.trim()) return { type: "unchanged" };
  const before = session.effectiveContext();
  const tokensBefore = sizeNow(deps);
  // No model call wrote this copy: it must not repeat the original's usage.
  const {
    chunks: _chunks,
    chunking: _chunking,
    instructions: _instructions,
    usage: _usage,
    unverified: _unverified,
    turns: baseTurns,
    ...kept
  } = recordOf(base);
  // The user's text is checked against the same ledger; the turns are those it stood for, the
  // copies are of every turn in the context now.
  const unverified = checkClaims(summary, base.ledger, []);
  const numbering = await effectiveNumbering(session);
  const record: CompactionRecord = {
    ...kept,
    ...(baseTurns === undefined || numbering === undefined
      ? {}
      : { turns: { through: baseTurns.through, kept: numbering.numbers, total: numbering.total } }),
    ...(unverified.length === 0 ? {} : { unverified }),
    summary,
    trigger: "edited",
    editedFrom: base.id,
    turnsSummarised: 0,
    tokensSummarised: 0,
    turnsKept: groupTurns(before.messages).length,
    tokensKept: estimateContextTokens({ messages: before.messages }),
    summaryTokens: estimateTokens(summary),
  };
  const { compaction } = await session.appendCompaction(record, before.messages);
  const tokensAfter = sizeNow(deps);
  deps.onEvent({
    type: "summary-edited",
    compactionId: compaction.id,
    summaryTokens: record.summaryTokens,
    tokensBefore,
    tokensAfter,
  });
  return { type: "edited", compaction, tokensBefore, tokensAfter };
}
