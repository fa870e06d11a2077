import type { TextBlock, Usage } from "../core/index.js";
import { isObject } from "./detect-format.js";

/**
 * An image of the source as the text that stands for it: images are not carried over (the brief of
 * the import is the conversation; the picture stays in the source file).
 */
export function imagePlaceholder(mediaType: string, base64?: string): TextBlock {
  const size = base64 === undefined ? "" : `, ${Math.round((base64.length * 3) / 4 / 1024)} KB`;
  return { type: "text", text: `[image (${mediaType}${size}) in the imported session; not carried over]` };
}

/** A block of a kind panto does not carry, as the text that says so. */
export function blockPlaceholder(kind: string): TextBlock {
  return { type: "text", text: `[${kind} in the imported session; not carried over]` };
}

/** The text of a value: itself when it is text, else its JSON. */
export function asText(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value ?? null);
}

/** Tool arguments as an object: a JSON object string parsed, anything else under `input`. */
export function asArguments(value: unknown): Record<string, unknown> {
  if (isObject(value)) return value;
  if (typeof value === "string") {
    try {
      const parsed: unknown = JSON.parse(value);
      if (isObject(parsed)) return parsed;
    } catch {
      // Not JSON: kept as the text it is.
    }
  }
  return { input: value ?? null };
}

function count(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : 0;
}

/**
 * Usage from the source's figures (DESIGN "Sizing": P counts cached tokens); undefined when the
 * source recorded no prompt count, never zeros.
 */
export function toUsage(figures: {
  input: unknown;
  cacheRead?: unknown;
  cacheWrite?: unknown;
  output: unknown;
  reasoning?: unknown;
  /** True when `input` already counts the cached tokens (OpenAI). */
  inputIncludesCache?: boolean;
}): Usage | undefined {
  if (typeof figures.input !== "number") return undefined;
  const cacheRead = count(figures.cacheRead);
  const cacheWrite = count(figures.cacheWrite);
  const promptTokens = count(figures.input) + (figures.inputIncludesCache ? 0 : cacheRead + cacheWrite);
  const outputTokens = count(figures.output);
  const reasoning = count(figures.reasoning);
  if (promptTokens === 0 && outputTokens === 0) return undefined;
  return {
    promptTokens,
    outputTokens,
    resentOutputTokens: Math.max(0, outputTokens - reasoning),
    ...(cacheRead > 0 ? { cacheReadTokens: cacheRead } : {}),
    ...(cacheWrite > 0 ? { cacheWriteTokens: cacheWrite } : {}),
    ...(reasoning > 0 ? { reasoningTokens: reasoning } : {}),
  };
}
