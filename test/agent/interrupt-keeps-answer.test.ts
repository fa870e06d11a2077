import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Agent } from "../../src/agent/index.js";
import type { AssistantMessage, ModelClient, ModelRequest, ToolCallBlock } from "../../src/core/index.js";
import { PantoError } from "../../src/core/index.js";
import { openNewSession, openSession, type Session } from "../../src/session/index.js";
import { createDefaultTools } from "../../src/tools/index.js";

let dir: string;
let session: Session;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "panto-interrupt-"));
  session = await openSession(join(dir, "s.jsonl"), { cwd: dir, onWarning: () => {} });
});
afterEach(async () => {
  await session.close();
  await rm(dir, { recursive: true, force: true });
});

const CALL: ToolCallBlock = {
  type: "tool-call",
  id: "w1",
  name: "write",
  arguments: { path: "x", content: "y" },
};

/** A client whose first answer streams `text` (and a complete tool call) and is then interrupted. */
function interruptedClient(controller: AbortController, requests: Array<Omit<ModelRequest, "model">>) {
  return (id: string): ModelClient => {
    const [provider = "", model = ""] = id.split("/");
    return {
      id,
      provider,
      model,
      async stream(request, options = {}): Promise<AssistantMessage> {
        requests.push(structuredClone(request));
        if (requests.length === 1) {
          options.onEvent?.({ type: "text-delta", text: "Half of the ans" });
          options.onEvent?.({ type: "tool-call-end", call: CALL });
          controller.abort();
          throw new PantoError("aborted", `${provider}: request aborted`);
        }
        return {
          role: "assistant",
          content: [{ type: "text", text: "fine" }],
          provider,
          api: "openai-chat",
          model,
          stopReason: "stop",
        };
      },
    };
  };
}

function agentWith(createClient: (id: string) => ModelClient, on: Session = session): Agent {
  return new Agent({
    session: on,
    model: "fake/active",
    createClient,
    tools: createDefaultTools(),
    systemPrompt: "SYSTEM",
    compactionPrompt: "COMPACT",
    keepVerbatimTokens: 0,
    approve: async () => "allow",
    onEvent: () => {},
    cwd: dir,
  });
}

describe("Ctrl-C during an answer", () => {
  it("keeps the prompt and the partial answer, marked aborted, with a not-run result for its tool call", async () => {
    const controller = new AbortController();
    const requests: Array<Omit<ModelRequest, "model">> = [];
    const agent = agentWith(interruptedClient(controller, requests));
    const result = await agent.prompt("explain the parser", { signal: controller.signal });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error.code).toBe("aborted");
    expect(!result.ok && result.keptInterrupted).toBe(true);
    expect(!result.ok && result.hint).toContain("stay in the context");

    await agent.prompt("go on");
    const sent = requests[1]?.context.messages ?? [];
    expect(sent.map((message) => message.role)).toEqual(["user", "assistant", "tool", "user"]);
    const partial = sent[1] as AssistantMessage;
    expect(partial.stopReason).toBe("aborted");
    expect(partial.content).toEqual([{ type: "text", text: "Half of the ans" }, CALL]);
    expect(partial.provider).toBe("fake");
    expect(JSON.stringify(sent[2])).toContain("Not run: the user interrupted");
    // The session file holds the same, and the file the turn was written to never marks it failed.
    const lines = (await readFile(session.path, "utf8")).trim().split("\n");
    expect(lines.some((line) => line.includes('"turn-failed"'))).toBe(false);
    expect(lines.some((line) => line.includes('"stopReason":"aborted"'))).toBe(true);
  });
});

describe("model entries", () => {
  it("records a /model switch in the session and reads it back as the recorded model on resume", async () => {
    const agent = agentWith(interruptedClient(new AbortController(), [{} as never]));
    agent.setModel("fake/other");
    await agent.recordModel();
    await session.close();
    const reopened = await openSession(session.path, { cwd: dir, onWarning: () => {} });
    expect(reopened.recordedModel()).toBe("fake/other");
    session = reopened;
  });

  it("defers the entry of a session with no file to its first prompt, so a switch alone writes nothing", async () => {
    const lazy = openNewSession(join(dir, "lazy.jsonl"), { cwd: dir, onWarning: () => {} });
    const agent = agentWith(interruptedClient(new AbortController(), [{} as never]), lazy);
    agent.setModel("fake/other");
    await agent.recordModel();
    expect(lazy.hasFile).toBe(false);
    await agent.prompt("hello");
    const types = (await readFile(lazy.path, "utf8"))
      .trim()
      .split("\n")
      .map((line) => (JSON.parse(line) as { type: string }).type);
    expect(types).toEqual(["session", "model", "message", "message"]);
    expect(lazy.recordedModel()).toBe("fake/other");
    await lazy.close();
  });
});
