import { describe, expect, it } from "vitest";
import type { ApprovalRequest, ApprovalVerdict } from "../../src/agent/index.js";
import { runToolCalls } from "../../src/agent/run-tool-calls.js";
import type { ToolCallBlock } from "../../src/core/index.js";
import type { SandboxPolicy, ToolSandbox } from "../../src/sandbox/index.js";
import type { Tool, ToolContext } from "../../src/tools/index.js";

/** A bash-like tool that records whether each call ran inside the sandbox. */
function recordingShell(runs: Array<{ sandboxed: boolean }>): Tool {
  return {
    definition: { name: "bash", description: "test shell", parameters: { type: "object" } },
    kind: "exec",
    confinable: {
      escapeReason: (args) =>
        typeof args.unsandboxed_reason === "string" ? args.unsandboxed_reason : undefined,
    },
    async execute(_args, context: ToolContext) {
      runs.push({ sandboxed: context.sandbox !== undefined });
      return { content: [{ type: "text", text: "ran" }], isError: false };
    },
  };
}

function fakeSandbox(askCommands: boolean): ToolSandbox {
  const policy = { askCommands } as SandboxPolicy;
  return {
    policy,
    layout: () => {
      throw new Error("not needed");
    },
    prepare: () => {
      throw new Error("not needed");
    },
  };
}

function call(args: Record<string, unknown>): ToolCallBlock {
  return { type: "tool-call", id: `call_${Math.random()}`, name: "bash", arguments: args };
}

async function runWith(options: {
  args: Record<string, unknown>;
  sandbox?: ToolSandbox;
  verdict?: ApprovalVerdict;
}): Promise<{ asked: ApprovalRequest[]; runs: Array<{ sandboxed: boolean }>; text: string }> {
  const asked: ApprovalRequest[] = [];
  const runs: Array<{ sandboxed: boolean }> = [];
  const [result] = await runToolCalls(
    [call(options.args)],
    {
      tools: [recordingShell(runs)],
      cwd: process.cwd(),
      approve: async (_call, _tool, request) => {
        asked.push(request);
        return options.verdict ?? "allow";
      },
      ...(options.sandbox === undefined ? {} : { sandbox: options.sandbox }),
    },
    undefined,
  );
  const text = result?.content.map((block) => (block.type === "text" ? block.text : "")).join("") ?? "";
  return { asked, runs, text };
}

describe("approvals with a sandbox", () => {
  it("run a sandboxed command without a question, inside the sandbox", async () => {
    const outcome = await runWith({ args: { command: "ls" }, sandbox: fakeSandbox(false) });
    expect(outcome.asked).toEqual([]);
    expect(outcome.runs).toEqual([{ sandboxed: true }]);
  });

  it("ask about sandboxed commands too when the policy says so", async () => {
    const outcome = await runWith({ args: { command: "ls" }, sandbox: fakeSandbox(true) });
    expect(outcome.asked).toEqual([{ kind: "tool" }]);
    expect(outcome.runs).toEqual([{ sandboxed: true }]);
  });

  it("ask about an escape with the model's reason, and run it outside the sandbox once allowed", async () => {
    const outcome = await runWith({
      args: { command: "npm install", unsandboxed_reason: "needs the network" },
      sandbox: fakeSandbox(false),
    });
    expect(outcome.asked).toEqual([{ kind: "escape", reason: "needs the network" }]);
    expect(outcome.runs).toEqual([{ sandboxed: false }]);
  });

  it("tell the model an escape was refused, and run nothing", async () => {
    const outcome = await runWith({
      args: { command: "npm install", unsandboxed_reason: "needs the network" },
      sandbox: fakeSandbox(false),
      verdict: { deny: true, reason: "use the lockfile" },
    });
    expect(outcome.runs).toEqual([]);
    expect(outcome.text).toBe(
      "The user did not allow running this command outside the sandbox. Their reason: use the lockfile\nTake it into account before trying again.",
    );
  });

  it("ask as before without a sandbox, whatever the call asks", async () => {
    const outcome = await runWith({ args: { command: "ls", unsandboxed_reason: "x" } });
    expect(outcome.asked).toEqual([{ kind: "tool" }]);
    expect(outcome.runs).toEqual([{ sandboxed: false }]);
  });
});
