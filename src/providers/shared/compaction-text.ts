/**
 * The compaction block as user-side text. Every adapter renders it the same way so a model switch
 * mid-session sees the same words (and a cache-friendly, byte-stable prefix).
 */
export function renderCompactionText(summary: string): string {
  return [
    "<conversation-summary>",
    summary,
    "</conversation-summary>",
    "",
    "The conversation so far was compacted into the summary above; the turns after it are verbatim.",
  ].join("\n");
}
