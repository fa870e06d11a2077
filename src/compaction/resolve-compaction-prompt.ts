import { PantoError } from "../core/index.js";

/** Where a COMPACTION.md layer comes from, in resolution order. */
export type CompactionPromptSource = "base" | "user" | "project";

/** One COMPACTION.md that exists on disk: its content, or the error reading it failed with. */
export interface CompactionPromptLayer {
  source: CompactionPromptSource;
  path: string;
  content?: string;
  error?: Error;
}

export interface ResolvedCompactionPrompt {
  prompt: string;
  source: CompactionPromptSource;
  path: string;
}

/**
 * Picks the compaction system prompt: layers come in order base, user, project (only files that
 * exist), and the last one wins whole. An unreadable or empty file is an error naming it, even when
 * a later layer would win, so a broken override never goes unnoticed.
 */
export function resolveCompactionPrompt(layers: readonly CompactionPromptLayer[]): ResolvedCompactionPrompt {
  let resolved: ResolvedCompactionPrompt | undefined;
  for (const layer of layers) {
    const what = layer.source === "base" ? "the base COMPACTION.md" : "COMPACTION.md override";
    if (layer.error !== undefined) {
      throw new PantoError(
        "invalid_request",
        `${layer.path}: ${what} cannot be read: ${layer.error.message}`,
        {
          cause: layer.error,
        },
      );
    }
    if (layer.content === undefined || layer.content.trim() === "") {
      throw new PantoError("invalid_request", `${layer.path}: ${what} is empty`);
    }
    resolved = { prompt: layer.content, source: layer.source, path: layer.path };
  }
  if (resolved === undefined)
    throw new PantoError("invalid_request", "no COMPACTION.md found (not even the base prompt)");
  return resolved;
}
