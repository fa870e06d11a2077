import type { EffectiveContext } from "../core/index.js";
import { estimateMessageTokens, estimateTokens } from "./estimate-tokens.js";

/** The local estimate of an effective context: its compaction block's summary plus every message. */
export function estimateContextTokens(context: EffectiveContext): number {
  const summary = context.compaction === undefined ? 0 : estimateTokens(context.compaction.summary);
  return context.messages.reduce((total, message) => total + estimateMessageTokens(message), summary);
}
