/**
 * Context windows the model makers publish, in tokens, for showing how full the context is (the
 * status line's share, `/context`, ACP's `usage_update`, the context warnings) and for when to
 * prepare a summary ahead (`prepare_compaction_at`, applied only where a compaction happens
 * anyway). Display and advice only: the spec's rule stands that
 * no correctness decision (overflow recovery, the keep budget, chunking) rests on a configured or
 * published window, so nothing below `runtime` imports this file (test/runtime/published-window
 * checks it). A window the server reports or an overflow taught wins over it, and config
 * `models.<id>.context_window` replaces it.
 *
 * Matched on the model's own name (the part after the last "/", lower case, a ":tag" dropped), first
 * match wins, so more specific patterns come first. Sources: the makers' model pages (2026-12).
 */
const PUBLISHED_WINDOWS: ReadonlyArray<readonly [RegExp, number]> = [
  // Anthropic: the 4.6 generation and later have 1M; earlier Claude 4.x and 3.x 200k.
  [/^claude-(?:opus|sonnet)-4-[6-9]\b/, 1_000_000],
  [/^claude-(?:opus|sonnet|haiku|fable)-[5-9]\b/, 1_000_000],
  [/^claude-/, 200_000],
  // OpenAI: GPT-5.4 1.05M, later 1M; the GPT-5 family 400k except the chat snapshots (128k).
  [/^gpt-5\.4\b/, 1_050_000],
  [/^gpt-5\.[5-9]\b/, 1_000_000],
  [/^gpt-5(?:\.\d+)?-chat\b/, 128_000],
  [/^gpt-5\b/, 400_000],
  [/^gpt-4\.1\b/, 1_047_576],
  [/^gpt-4o\b/, 128_000],
  [/^gpt-oss\b/, 131_072],
  [/^o[134](?:-|$)/, 200_000],
  [/^codex-mini\b/, 200_000],
  // Google Gemini 2.x and 3.x.
  [/^gemini-(?:2\.[05]|3)/, 1_048_576],
  [/^gemini-1\.5-pro\b/, 2_097_152],
  [/^gemini-1\.5-flash\b/, 1_048_576],
  // xAI.
  [/^grok-4\.(?:3|20?)\b/, 1_000_000],
  [/^grok-4\.5\b/, 500_000],
  [/^grok-4(?:[.-]1)?-fast\b/, 2_000_000],
  [/^grok-4\b/, 256_000],
  [/^grok-code-fast\b/, 256_000],
  [/^grok-3\b/, 131_072],
  // DeepSeek (its API serves V3.x as deepseek-chat and R1 as deepseek-reasoner).
  [/^deepseek-(?:chat|reasoner|v3|r1)/, 128_000],
  // Mistral.
  [/^(?:codestral|devstral|mistral-large-3|mistral-medium-3)/, 256_000],
  [/^(?:mistral-large|mistral-medium|mistral-small|magistral|ministral|pixtral|open-mistral-nemo)/, 128_000],
  // Open models, at their published (not a local server's default) length.
  [/^llama-?4[-.:]?scout/, 10_000_000],
  [/^llama-?4/, 1_000_000],
  [/^llama-?3\.[123]/, 131_072],
  [/^qwen3-coder/, 262_144],
  [/^qwen3/, 131_072],
  [/^qwen2\.5/, 131_072],
  [/^kimi-k2/, 262_144],
  [/^glm-4\.[56]/, 200_000],
];

/**
 * The published window of `modelId` ("provider/model"; OpenRouter-style "x-ai/grok-4" and
 * Ollama-style "qwen3-coder:30b" names work too), or undefined for a model the table does not know.
 */
export function publishedContextWindow(modelId: string): number | undefined {
  const name = (modelId.split("/").at(-1) ?? "").toLowerCase().replace(/:.*$/, "");
  // Bedrock spells Claude "us.anthropic.claude-...".
  const bare = name.replace(/^(?:(?:us|eu|apac|global)\.)?(?:anthropic\.)?/, "");
  return PUBLISHED_WINDOWS.find(([pattern]) => pattern.test(bare))?.[1];
}
