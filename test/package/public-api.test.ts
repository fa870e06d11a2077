import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import * as panto from "../../src/index.js";
import { startFakeAnthropicServer } from "../../src/simulator/fake-anthropic-server.js";

describe("the public API", () => {
  it("exports exactly the listed values: internals such as transcript quoting or session repair stay private", () => {
    expect(Object.keys(panto).sort()).toEqual(
      [
        "Agent",
        "BASE_COMPACTION_PROMPT_PATH",
        "ConfigError",
        "DEFAULT_KEEP_VERBATIM_TOKENS",
        "ERROR_CODES",
        "PantoError",
        "PantoSetupError",
        "SESSION_VERSION",
        "SessionError",
        "buildCompactionRequest",
        "buildSystemPrompt",
        "createPanto",
        "classifyProviderError",
        "createDefaultTools",
        "createModelClient",
        "estimateContextTokens",
        "estimateMessageTokens",
        "estimateTokens",
        "extractFacts",
        "findLatestSession",
        "findProjectRoot",
        "groupTurns",
        "isPantoError",
        "isSessionError",
        "listSessions",
        "loadConfig",
        "openSession",
        "parseConfigText",
        "parseModelId",
        "parseSessionLine",
        "planRetention",
        "previewCompaction",
        "readCompactionHistory",
        "readCompactionPromptLayers",
        "replayEntries",
        "resolveCompactionPrompt",
        "resolveModelSpec",
        "resolvePantoHome",
        "resolveSessionRef",
        "runCompaction",
        "runTool",
        "serializeTranscript",
        "sessionDirectory",
        "sizeTurns",
        "summariseWithFallback",
      ].sort(),
    );
  });

  it("runs the module example of src/index.ts: an agent answers through a model client and writes its session", async () => {
    const server = await startFakeAnthropicServer();
    try {
      server.enqueue({ type: "text", text: "Fixed it." });
      const cwd = await mkdtemp(join(tmpdir(), "panto-api-"));
      const env = { ANTHROPIC_API_KEY: "test-key", ANTHROPIC_BASE_URL: server.url };
      const session = await panto.openSession(join(cwd, "session.jsonl"), { cwd });
      const events: string[] = [];
      const agent = new panto.Agent({
        session,
        model: "anthropic/claude-sonnet-4-5",
        createClient: (id) => panto.createModelClient(id, { env }),
        tools: panto.createDefaultTools(),
        systemPrompt: await panto.buildSystemPrompt({ cwd, projectRoot: cwd }),
        compactionPrompt: "Summarise the conversation so far.",
        keepVerbatimTokens: 20_000,
        approve: async () => "allow",
        onEvent: (event) => events.push(event.type),
        cwd,
      });
      const result = await agent.prompt("Fix the failing test");
      await session.close();
      expect(result).toEqual({ ok: true, text: "Fixed it." });
      expect(events).toContain("text-delta");
      const lines = (await readFile(join(cwd, "session.jsonl"), "utf8")).trim().split("\n");
      expect(lines.map((line) => (JSON.parse(line) as { type: string }).type)).toEqual([
        "session",
        "message",
        "message",
      ]);
    } finally {
      await server.close();
    }
  });
});
