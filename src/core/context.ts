import type { CompactionBlock } from "./content.js";
import type { Message } from "./messages.js";

/**
 * What a model request is built from: the latest compaction block (if any) followed by every
 * message after it. The system prompt is added by the caller.
 */
export interface EffectiveContext {
  compaction?: CompactionBlock;
  messages: Message[];
  /**
   * Where clearing has settled the prompt: of the latest clearing in force (and the one before it),
   * the tool call whose result is the latest that clearing holds as its stub, in context order.
   * Clearings only ever stub results after the latest of them (every eligible one before it is
   * stubbed already), so the prompt up to it stays as it is until `/unclear`: a provider with
   * explicit prompt caching may keep those prefixes cached longer than the rest (the earlier one
   * lets the request that moves the point find what was cached before it). Absent when nothing is cleared.
   */
  settledToolCallIds?: string[];
}
