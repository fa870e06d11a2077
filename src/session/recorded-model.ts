import type { SessionEntry } from "./session-entries.js";

/**
 * The model a session was last using: the latest model entry or assistant answer among `entries`
 * ("provider/model"). Answers count too, so a session whose model entry lies before the latest
 * compaction still knows its model from the kept copies.
 */
export function recordedModel(entries: readonly SessionEntry[]): string | undefined {
  for (let index = entries.length - 1; index >= 0; index--) {
    const entry = entries[index];
    if (entry?.type === "model") return entry.model;
    if (entry?.type === "message" && entry.message.role === "assistant")
      return `${entry.message.provider}/${entry.message.model}`;
  }
  return undefined;
}
