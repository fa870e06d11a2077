import { describe, expect, it } from "vitest";
import type { ToolCallBlock } from "../../src/core/index.js";
import { ApprovalPolicy } from "../../src/runtime/approval-policy.js";
import type { ApprovalAnswer } from "../../src/runtime/front-end.js";
import { createDefaultTools, type Tool } from "../../src/tools/index.js";

const bash = createDefaultTools().find((tool) => tool.definition.name === "bash") as Tool;
const TOOL = { kind: "tool" } as const;
const call = (id: string): ToolCallBlock => ({ type: "tool-call", id, name: "bash", arguments: {} });

describe("ApprovalPolicy questions from task children", () => {
  it("passes the child's label to the front-end's asker, and asks one question at a time", async () => {
    const asked: Array<string | undefined> = [];
    let open = 0;
    let peak = 0;
    const approvals = new ApprovalPolicy({
      allowAll: false,
      ask: async (_call, _tool, _request, origin): Promise<ApprovalAnswer> => {
        open++;
        peak = Math.max(peak, open);
        asked.push(origin);
        await new Promise((resolve) => setTimeout(resolve, 10));
        open--;
        return origin === undefined ? "once" : "deny";
      },
      onDenied: () => {},
    });
    const verdicts = await Promise.all([
      approvals.decide(call("a"), bash, TOOL, "task general: look"),
      approvals.decide(call("b"), bash, TOOL, "task reviewer: check"),
      approvals.decide(call("c"), bash),
    ]);
    expect(verdicts).toEqual(["deny", "deny", "allow"]);
    expect(asked).toEqual(["task general: look", "task reviewer: check", undefined]);
    expect(peak).toBe(1);
  });

  it("asks a child's escape from the sandbox with its label, in the same queue, and never remembers it", async () => {
    const asked: Array<{ kind: string; origin: string | undefined }> = [];
    const approvals = new ApprovalPolicy({
      allowAll: false,
      ask: async (_call, _tool, request, origin) => {
        asked.push({ kind: request.kind, origin });
        return "always";
      },
      onDenied: () => {},
    });
    const leave = { kind: "escape", reason: "needs the network" } as const;
    await approvals.decide(call("a"), bash, leave, "task net: fetch");
    await approvals.decide(call("b"), bash, leave, "task net: fetch");
    expect(asked).toEqual([
      { kind: "escape", origin: "task net: fetch" },
      { kind: "escape", origin: "task net: fetch" },
    ]);
  });

  it("does not ask again once an earlier queued question allowed the tool always", async () => {
    let questions = 0;
    const approvals = new ApprovalPolicy({
      allowAll: false,
      ask: async () => {
        questions++;
        return "always";
      },
      onDenied: () => {},
    });
    await Promise.all([
      approvals.decide(call("a"), bash, TOOL, "task a"),
      approvals.decide(call("b"), bash, TOOL, "task b"),
    ]);
    expect(questions).toBe(1);
  });
});
