import { describe, expect, it } from "vitest";
import { runToolCalls } from "../../src/agent/run-tool-calls.js";
import type { CheckpointRecorder, CheckpointToken } from "../../src/checkpoints/index.js";
import { type ToolCallBlock, type ToolResultBlock, wasNotRun } from "../../src/core/index.js";
import type { AgentHooks } from "../../src/hooks/index.js";
import type { CheckpointEntry } from "../../src/session/index.js";
import type { Tool } from "../../src/tools/index.js";

/** A tool that notes when it runs. */
function tool(name: string, kind: Tool["kind"], log: string[]): Tool {
  return {
    kind,
    definition: { name, description: "", parameters: {} },
    execute: async () => {
      log.push(`run ${name}`);
      return { content: [{ type: "text", text: "done" }], isError: false };
    },
  };
}

/** A recorder that notes its calls and answers with an entry naming the call. */
function recorder(log: string[]): CheckpointRecorder {
  return {
    before: async (call): Promise<CheckpointToken> => {
      log.push(`before ${call.name}`);
      return { call };
    },
    after: async (token, result: ToolResultBlock): Promise<CheckpointEntry> => {
      log.push(`after ${token.call.name} ${result.isError ? "error" : "ok"}`);
      return {
        type: "checkpoint",
        id: "e1",
        ts: "",
        toolCallId: token.call.id,
        tool: token.call.name,
        root: "/w",
        scope: "workspace",
        files: [],
        uncovered: [],
      };
    },
  };
}

function hooks(log: string[], blocked: string[] = []): AgentHooks {
  return {
    preToolUse: async (call: ToolCallBlock) => {
      log.push(`pre ${call.name}`);
      return blocked.includes(call.name) ? { blocked: true, reason: "no" } : { blocked: false };
    },
    postToolUse: async (call: ToolCallBlock) => {
      log.push(`post ${call.name}`);
    },
  } as unknown as AgentHooks;
}

const call = (id: string, name: string): ToolCallBlock => ({ type: "tool-call", id, name, arguments: {} });

describe("checkpoints around tool calls in the agent", () => {
  it("brackets a call that runs, PostToolUse hooks included, after its approval, and reports each entry", async () => {
    const log: string[] = [];
    const entries: CheckpointEntry[] = [];
    await runToolCalls(
      [call("a", "bash"), call("b", "read")],
      {
        tools: [tool("bash", "exec", log), tool("read", "read", log)],
        approve: async (asked) => {
          log.push(`approve ${asked.name}`);
          return "allow";
        },
        cwd: "/w",
        hooks: hooks(log),
        checkpoints: recorder(log),
      },
      undefined,
      { onCheckpoint: (entry) => entries.push(entry) },
    );
    expect(log).toEqual([
      "pre bash",
      "approve bash",
      "before bash",
      "run bash",
      "post bash",
      "after bash ok",
      "pre read",
      "before read",
      "run read",
      "post read",
      "after read ok",
    ]);
    expect(entries.map((entry) => entry.toolCallId)).toEqual(["a", "b"]);
  });

  it("takes no checkpoint of a call that never ran, and its result says it never ran", async () => {
    const log: string[] = [];
    const options = {
      tools: [tool("bash", "exec", log), tool("write", "write", log)],
      approve: async () => "deny" as const,
      cwd: "/w",
      hooks: hooks(log, ["write"]),
      checkpoints: recorder(log),
    };
    const results = await runToolCalls([call("a", "bash"), call("b", "write")], options, undefined);
    const aborted = new AbortController();
    aborted.abort();
    const interrupted = await runToolCalls([call("c", "bash")], options, aborted.signal);
    expect(log.filter((line) => line.startsWith("before") || line.startsWith("run"))).toEqual([]);
    expect([...results, ...interrupted].map(wasNotRun)).toEqual([true, true, true]);
  });
});
