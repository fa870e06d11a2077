import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Agent } from "../../src/agent/index.js";
import { openSession, type Session } from "../../src/session/index.js";
import { createDefaultTools } from "../../src/tools/index.js";
import { assistant, call, user } from "../session/session-test-helpers.js";
import { scriptedClients } from "./scripted-client.js";

/**
 * A compaction after a clearing: the summariser reads the context as it holds it (the stub, not
 * the output), while the ledger and the restored facts read the cleared output whole from the
 * session, and the kept copies are written whole (the file never holds a stub in a message).
 */
let dir: string;
let session: Session;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "panto-compact-cleared-"));
  session = await openSession(join(dir, "s.jsonl"), { cwd: dir });
});
afterEach(async () => {
  await session.close();
  await rm(dir, { recursive: true, force: true });
});

const STUB =
  '[cleared to save context: output of bash "npm test" (exit 3), 900 tokens; recall {"tool_result": "t1"} reads it back]';

describe("compaction after clearing", () => {
  it("sends the stub to the summariser but restores the ledger's error line from the full output", async () => {
    await session.appendMessage(user("run the tests"));
    await session.appendMessage(assistant("", [call("t1", "bash", { command: "npm test" })]));
    await session.appendMessage({
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: "t1",
          toolName: "bash",
          content: [
            { type: "text", text: `${"ok line\n".repeat(20)}Error: boom-42 in parser.ts\n\nExit code: 3` },
          ],
          isError: true,
        },
      ],
    });
    await session.appendMessage(assistant("the tests fail"));
    await session.appendMessage(user("and now?"));
    await session.appendMessage(assistant("", [call("t2", "bash", { command: "ls" })]));
    await session.appendMessage({
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: "t2",
          toolName: "bash",
          content: [{ type: "text", text: "a b c\n\nExit code: 0" }],
          isError: false,
        },
      ],
    });
    await session.appendMessage(assistant("listed"));
    await session.appendClearing({
      results: [{ toolCallId: "t1", toolName: "bash", tokens: 900, stub: STUB }],
      tokensBefore: 2_000,
      tokensAfter: 1_100,
      reason: "trigger",
    });
    const scripted = scriptedClients([{ reply: "## Goal\nFix the tests." }]);
    const agent = new Agent({
      session,
      model: "fake/active",
      createClient: scripted.createClient,
      tools: createDefaultTools(),
      systemPrompt: "SYSTEM",
      compactionPrompt: "COMPACT",
      keepVerbatimTokens: 0,
      approve: async () => "allow",
      onEvent: () => {},
      cwd: dir,
    });
    const outcome = await agent.compact(undefined, { force: true });
    expect(outcome.type).toBe("compacted");
    const sent = JSON.stringify(scripted.calls[0]?.request);
    expect(sent).toContain("cleared to save context");
    expect(sent).not.toContain("boom-42");
    const compaction = session.activeCompaction();
    const command = compaction?.ledger?.commands.find((entry) => entry.command === "npm test");
    expect(command?.exitCode).toBe(3);
    expect(command?.error).toContain("boom-42");
  });
});
