import { randomUUID } from "node:crypto";
import type { AssistantMessage } from "../../core/index.js";

/**
 * Gives every tool call of an answer an id of its own: a server that sends none, an empty one or
 * the same one twice (some local servers and proxies do) would leave results that cannot say
 * which call they answer, and a context the provider rejects. The block is changed in place, so
 * the events already emitted for it show the same id.
 */
export function withDistinctCallIds(message: AssistantMessage): AssistantMessage {
  const seen = new Set<string>();
  for (const block of message.content) {
    if (block.type !== "tool-call") continue;
    if (block.id === "" || seen.has(block.id))
      block.id = `call_${randomUUID().replaceAll("-", "").slice(0, 24)}`;
    seen.add(block.id);
  }
  return message;
}
