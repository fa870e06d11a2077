import { describe, expect, it } from "vitest";
import type { ApprovalRequest } from "../../src/agent/index.js";
import type { ToolCallBlock } from "../../src/core/index.js";
import { ApprovalPolicy } from "../../src/runtime/approval-policy.js";
import type { ApprovalAnswer, AskedRequest } from "../../src/runtime/front-end.js";
import { RunRules } from "../../src/runtime/run-rules.js";
import { createDefaultTools, type Tool } from "../../src/tools/index.js";

const tools = createDefaultTools();
const tool = (name: string): Tool => {
  const found = tools.find((candidate) => candidate.definition.name === name);
  if (found === undefined) throw new Error(`no tool ${name}`);
  return found;
};
const call = (name: string, id = "c1"): ToolCallBlock => ({ type: "tool-call", id, name, arguments: {} });

/** A policy whose asker answers from a list, recording what it was asked and what was denied unasked. */
function policy(
  answers: ApprovalAnswer[],
  options: { allowAll?: boolean; noAsker?: boolean; allowUnsandboxed?: boolean } = {},
) {
  const asked: string[] = [];
  const requests: ApprovalRequest[] = [];
  const denied: string[] = [];
  const ask = async (
    toolCall: ToolCallBlock,
    _tool: Tool,
    request: ApprovalRequest,
  ): Promise<ApprovalAnswer> => {
    asked.push(toolCall.name);
    requests.push(request);
    return answers.shift() ?? "deny";
  };
  const approvals = new ApprovalPolicy({
    allowAll: options.allowAll === true,
    allowUnsandboxed: options.allowUnsandboxed === true,
    ...(options.noAsker === true ? {} : { ask }),
    onDenied: (toolCall) => denied.push(toolCall.id),
  });
  return { approvals, asked, denied, requests };
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

  describe("a request to leave the sandbox", () => {
    const leave: ApprovalRequest = { kind: "escape", reason: "needs the network" };

    it("is asked every time with its reason, 'always' covering only that call, whatever --allow-tools says", async () => {
      const { approvals, asked, requests } = policy(["always", "always", "deny"], { allowAll: true });
      expect(await approvals.decide(call("bash"), tool("bash"), leave)).toBe("allow");
      expect(await approvals.decide(call("bash"), tool("bash"), leave)).toBe("allow");
      expect(await approvals.decide(call("bash"), tool("bash"), leave)).toBe("deny");
      expect(asked).toEqual(["bash", "bash", "bash"]);
      expect(requests).toEqual([leave, leave, leave]);
      expect(approvals.granted()).toEqual([]);
    });

    it("is refused where nobody can be asked, naming --allow-unsandboxed, even with --allow-tools", async () => {
      const { approvals, denied } = policy([], { noAsker: true, allowAll: true });
      const verdict = await approvals.decide(call("bash", "toolu_3"), tool("bash"), leave);
      expect(verdict).toMatchObject({ deny: true });
      expect(typeof verdict === "object" ? verdict.reason : "").toContain("--allow-unsandboxed");
      expect(denied).toEqual(["toolu_3"]);
    });

    it("runs where nobody can be asked only with --allow-unsandboxed, which does not skip the question where someone can", async () => {
      const unattended = policy([], { noAsker: true, allowUnsandboxed: true });
      expect(await unattended.approvals.decide(call("bash"), tool("bash"), leave)).toBe("allow");
      expect(unattended.denied).toEqual([]);
      const attended = policy(["deny"], { allowUnsandboxed: true });
      expect(await attended.approvals.decide(call("bash"), tool("bash"), leave)).toBe("deny");
      expect(attended.asked).toEqual(["bash"]);
    });
  });

  it("an 'always' answered with the suggested rules allows what they cover from the next call, and still asks about the rest", async () => {
    const rules = await RunRules.create(undefined, { root: "/work/app", home: "/home/me" }, "/work/app", {
      local: "/nonexistent/local.json",
      user: "/nonexistent/user.json",
    });
    const requests: AskedRequest[] = [];
    const notices: string[] = [];
    const answers: ApprovalAnswer[] = [];
    const approvals = new ApprovalPolicy({
      runRules: rules,
      ask: async (_call, _tool, request) => {
        requests.push(request);
        const suggested = request.kind === "tool" ? (request.suggestedRules ?? []) : [];
        return answers.shift() ?? { allowRules: suggested, saveTo: "session" };
      },
      onRulesAdded: (added, file) => notices.push(`${added.join(",")} ${file ?? "session"}`),
      onDenied: () => {},
    });
    const bash = (command: string, id: string): ToolCallBlock => ({
      type: "tool-call",
      id,
      name: "bash",
      arguments: { command },
    });
    expect(await approvals.decide(bash("npm test -- --watch", "b1"), tool("bash"))).toBe("allow");
    expect(requests[0]).toMatchObject({ kind: "tool", suggestedRules: ["Bash(npm test:*)"] });
    expect(notices).toEqual(["Bash(npm test:*) session"]);
    // The agent now finds the rule allows the next npm test; another command is still asked.
    expect(rules.check(bash("npm test", "b2"), tool("bash"))).toMatchObject({ verdict: "allow" });
    expect(rules.check(bash("rm -rf build", "b3"), tool("bash"))).toBeUndefined();
    expect(approvals.rules.map((rule) => [rule.text, rule.layer])).toEqual([["Bash(npm test:*)", "session"]]);
    // A plain "always" still allows the tool for the session, as before.
    answers.push("always");
    expect(await approvals.decide(call("write", "w1"), tool("write"))).toBe("allow");
    expect(approvals.granted()).toEqual(["write"]);
  });
});
