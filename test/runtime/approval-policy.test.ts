import { describe, expect, it } from "vitest";
import type { ToolCallBlock } from "../../src/core/index.js";
import { ApprovalPolicy } from "../../src/runtime/approval-policy.js";
import type { ApprovalAnswer } from "../../src/runtime/front-end.js";
import { createDefaultTools, type Tool } from "../../src/tools/index.js";

const tools = createDefaultTools();
const tool = (name: string): Tool => {
  const found = tools.find((candidate) => candidate.definition.name === name);
  if (found === undefined) throw new Error(`no tool ${name}`);
  return found;
};
const call = (name: string, id = "c1"): ToolCallBlock => ({ type: "tool-call", id, name, arguments: {} });

/** A policy whose asker answers from a list, recording what it was asked and what was denied unasked. */
function policy(answers: ApprovalAnswer[], options: { allowAll?: boolean; noAsker?: boolean } = {}) {
  const asked: string[] = [];
  const denied: string[] = [];
  const ask = async (toolCall: ToolCallBlock): Promise<ApprovalAnswer> => {
    asked.push(toolCall.name);
    return answers.shift() ?? "deny";
  };
  const approvals = new ApprovalPolicy({
    allowAll: options.allowAll === true,
    ...(options.noAsker === true ? {} : { ask }),
    onDenied: (toolCall) => denied.push(toolCall.id),
  });
  return { approvals, asked, denied };
}

describe("ApprovalPolicy", () => {
  it("allows every call without asking under --allow-tools", async () => {
    const { approvals, asked } = policy([], { allowAll: true });
    expect(await approvals.decide(call("bash"), tool("bash"))).toBe("allow");
    expect(asked).toEqual([]);
  });

  it("asks each time for 'once', and remembers 'always' for that tool only, for the rest of the run", async () => {
    const { approvals, asked } = policy(["once", "always", "deny"]);
    expect(await approvals.decide(call("bash"), tool("bash"))).toBe("allow");
    expect(await approvals.decide(call("bash"), tool("bash"))).toBe("allow");
    expect(await approvals.decide(call("bash"), tool("bash"))).toBe("allow");
    expect(await approvals.decide(call("write"), tool("write"))).toBe("deny");
    expect(asked).toEqual(["bash", "bash", "write"]);
    expect(approvals.granted()).toEqual(["bash"]);
  });

  it("passes the user's reason for a denial on to the agent", async () => {
    const { approvals } = policy([{ deny: true, reason: "not on main" }]);
    expect(await approvals.decide(call("edit"), tool("edit"))).toEqual({ deny: true, reason: "not on main" });
    expect(approvals.granted()).toEqual([]);
  });

  it("denies without a question where nobody can be asked, and says which call", async () => {
    const { approvals, denied } = policy([], { noAsker: true });
    expect(await approvals.decide(call("bash", "toolu_9"), tool("bash"))).toBe("deny");
    expect(denied).toEqual(["toolu_9"]);
  });

  it("lets write and edit run unasked in accept-edits mode, still asks for bash, and asks nothing in allow-all", async () => {
    const { approvals, asked } = policy(["once"]);
    approvals.setMode("accept-edits");
    expect(await approvals.decide(call("write"), tool("write"))).toBe("allow");
    expect(await approvals.decide(call("edit"), tool("edit"))).toBe("allow");
    expect(await approvals.decide(call("bash"), tool("bash"))).toBe("allow");
    expect(asked).toEqual(["bash"]);
    approvals.setMode("allow-all");
    expect(approvals.allowAll).toBe(true);
    expect(await approvals.decide(call("bash"), tool("bash"))).toBe("allow");
    approvals.setMode("ask");
    expect(await approvals.decide(call("write"), tool("write"))).toBe("deny");
    expect(asked).toEqual(["bash", "write"]);
  });

  it("keeps each run's 'always' answers to itself", async () => {
    const first = policy(["always"]);
    const second = policy(["deny"]);
    await first.approvals.decide(call("bash"), tool("bash"));
    expect(await second.approvals.decide(call("bash"), tool("bash"))).toBe("deny");
    expect(second.approvals.granted()).toEqual([]);
  });
});
