import type { CompactionBlock } from "./content.js";
import type { Message } from "./messages.js";

/**
 * What a model request is built from: the latest compaction block (if any) followed by every
 * message after it. The system prompt is added by the caller.
 */
export interface EffectiveContext {
  compaction?: CompactionBlock;
  messages: Message[];
}
