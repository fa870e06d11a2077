import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { ModelClient } from "../../src/core/index.js";
import { knownWindow } from "../../src/runtime/context-usage.js";
import { publishedContextWindow } from "../../src/runtime/published-context-window.js";

const SRC = fileURLToPath(new URL("../../src", import.meta.url));

/** A client whose server reports `window` (or nothing). */
function clientReporting(window: number | undefined): ModelClient {
  return { contextWindow: async () => window } as unknown as ModelClient;
}

describe("publishedContextWindow: the makers' published windows, for display", () => {
  it.each([
    ["anthropic/claude-sonnet-4-5", 200_000],
    ["anthropic/claude-sonnet-4-5-20250929", 200_000],
    ["anthropic/claude-opus-4-1", 200_000],
    ["anthropic/claude-haiku-4-5", 200_000],
    ["anthropic/claude-opus-4-6", 1_000_000],
    ["bedrock/us.anthropic.claude-sonnet-4-5-20250929-v1:0", 200_000],
    ["openai/gpt-5", 400_000],
    ["openai/gpt-5-mini", 400_000],
    ["openai/gpt-5.1-codex", 400_000],
    ["openai/gpt-5-chat-latest", 128_000],
    ["openai/gpt-5.4", 1_050_000],
    ["openai/gpt-4.1-mini", 1_047_576],
    ["openai/o3", 200_000],
    ["openai/o4-mini", 200_000],
    ["google/gemini-2.5-pro", 1_048_576],
    ["google/gemini-3-flash-preview", 1_048_576],
    ["xai/grok-4", 256_000],
    ["openrouter/x-ai/grok-4-fast", 2_000_000],
    ["deepseek/deepseek-chat", 128_000],
    ["deepseek/deepseek-reasoner", 128_000],
    ["mistral/mistral-large-latest", 128_000],
    ["mistral/devstral-medium-latest", 256_000],
    ["ollama/llama3.1:8b", 131_072],
    ["ollama/qwen3-coder:30b", 262_144],
    ["groq/openai/gpt-oss-120b", 131_072],
  ])("knows %s: %i tokens", (model, tokens) => {
    expect(publishedContextWindow(model)).toBe(tokens);
  });

  it("knows nothing of a model it has no entry for", () => {
    expect(publishedContextWindow("local/my-own-finetune")).toBeUndefined();
    expect(publishedContextWindow("openai/gpt-3.5-turbo")).toBeUndefined();
  });
});

describe("knownWindow: which window a display shows", () => {
  it("takes a learned window first, then the server's, then config, then the published one", async () => {
    const model = "anthropic/claude-sonnet-4-5";
    const models = { [model]: { context_window: 150_000 } };
    expect(await knownWindow(clientReporting(64_000), 120_000, model, models)).toEqual({
      tokens: 120_000,
      source: "learned",
    });
    expect(await knownWindow(clientReporting(64_000), undefined, model, models)).toEqual({
      tokens: 64_000,
      source: "server",
    });
    expect(await knownWindow(clientReporting(undefined), undefined, model, models)).toEqual({
      tokens: 150_000,
      source: "configured",
    });
    expect(await knownWindow(clientReporting(undefined), undefined, model, {})).toEqual({
      tokens: 200_000,
      source: "published",
    });
    expect(await knownWindow(clientReporting(undefined), undefined, "local/unknown", {})).toBeUndefined();
  });
});

/** Every .ts file under `folder`, recursively. */
async function sourceFiles(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
    .map((entry) => join(entry.parentPath, entry.name));
}

describe("the published and configured windows stay out of correctness decisions (spec: no configured window)", () => {
  it("are read only by the runtime's display code, never by core, session, compaction, agent or providers", async () => {
    const layers = ["core", "session", "compaction", "agent", "providers"];
    const offenders: string[] = [];
    for (const layer of layers)
      for (const file of await sourceFiles(join(SRC, layer))) {
        const text = await readFile(file, "utf8");
        if (
          /published-context-window|publishedContextWindow|knownWindow|context-usage|ModelSettings|\.context_window\b/.test(
            text,
          )
        )
          offenders.push(file.slice(SRC.length + 1));
      }
    expect(offenders).toEqual([]);
    // The one reader of the table is knownWindow, which only display code calls.
    const readers: string[] = [];
    for (const file of await sourceFiles(SRC))
      if ((await readFile(file, "utf8")).includes("published-context-window.js"))
        readers.push(file.slice(SRC.length + 1));
    expect(readers).toEqual(["runtime/context-usage.ts"]);
  });
});
