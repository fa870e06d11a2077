/** The heading of the compaction system prompt's note about pinned notes. */
export const PINNED_NOTES_PROMPT_HEADING = "## Pinned notes";

/**
 * The compaction system prompt with a closing note that the user pinned `pins`: they travel word
 * for word beside the summary, so the summary must not repeat or paraphrase them. Unchanged
 * without pins.
 */
export function withPinnedNotes(systemPrompt: string, pins: readonly string[]): string {
  if (pins.length === 0) return systemPrompt;
  const list = pins.map((pin, index) => `${index + 1}. ${pin}`).join("\n");
  return `${systemPrompt.trimEnd()}\n\n${PINNED_NOTES_PROMPT_HEADING}\n\nThe user pinned these notes. They are carried word for word in a section of their own next to your summary, so do not repeat or paraphrase them in the summary:\n${list}\n`;
}
