import type { GenerateContentResponseUsageMetadata } from "@google/genai";
import type { Usage } from "../../core/index.js";

/**
 * Normalises Gemini usage (DESIGN "Sizing"): the prompt includes cached content and, when tools
 * ran server-side, the tool-use prompt; thoughts are counted apart from candidates, so
 * O = candidates + thoughts and only the candidates are re-sent. Missing usage stays undefined.
 */
export function mapGeminiUsage(
  metadata: GenerateContentResponseUsageMetadata | undefined,
): Usage | undefined {
  if (metadata === undefined || typeof metadata.promptTokenCount !== "number") return undefined;
  const candidates = metadata.candidatesTokenCount ?? 0;
  const thoughts = metadata.thoughtsTokenCount;
  const cached = metadata.cachedContentTokenCount;
  return {
    promptTokens: metadata.promptTokenCount + (metadata.toolUsePromptTokenCount ?? 0),
    outputTokens: candidates + (thoughts ?? 0),
    resentOutputTokens: candidates,
    ...(typeof cached === "number" ? { cacheReadTokens: cached } : {}),
    ...(typeof thoughts === "number" ? { reasoningTokens: thoughts } : {}),
  };
}
