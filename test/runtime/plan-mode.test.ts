import { describe, expect, it } from "vitest";
import type { ToolCallBlock } from "../../src/core/index.js";
import { type ApprovalMode, ApprovalPolicy } from "../../src/runtime/approval-policy.js";
import { MODE_SECTION_HEADING, modePromptSection } from "../../src/runtime/mode-prompt-section.js";
import { planModeRestriction } from "../../src/runtime/plan-mode-guard.js";
import { isReadOnlyCommand } from "../../src/runtime/read-only-command.js";
import { createDefaultTools, type Tool } from "../../src/tools/index.js";

const tools = createDefaultTools();
const tool = (name: string): Tool => {
  const found = tools.find((candidate) => candidate.definition.name === name);
  if (found === undefined) throw new Error(`no tool ${name}`);
  return found;
};
const call = (name: string, args: Record<string, unknown> = {}): ToolCallBlock => ({
  type: "tool-call",
  id: "c1",
  name,
  arguments: args,
});

/** A policy that records each change of mode it reports. */
function recorded(options: { allowAll?: boolean; plan?: boolean } = {}) {
  const changes: Array<[ApprovalMode, ApprovalMode]> = [];
  const approvals = new ApprovalPolicy({
    ...options,
    onDenied: () => undefined,
    onModeChanged: (mode, previous) => changes.push([mode, previous]),
  });
  return { approvals, changes };
}

describe("plan mode in the approval policy", () => {
  it("returns to the mode before plan mode when it is left, and reports each change once", () => {
    const { approvals, changes } = recorded();
    approvals.setMode("accept-edits");
    approvals.setMode("plan");
    approvals.setMode("plan");
    expect(approvals.workingMode).toBe("accept-edits");
    approvals.leavePlan();
    expect(approvals.mode).toBe("accept-edits");
    expect(changes).toEqual([
      ["accept-edits", "ask"],
      ["plan", "accept-edits"],
      ["accept-edits", "plan"],
    ]);
  });

  it("starts in plan mode with --plan and leaves it for allow-all with --allow-tools, whose answers hold meanwhile", async () => {
    const { approvals, changes } = recorded({ plan: true, allowAll: true });
    expect(approvals.mode).toBe("plan");
    expect(changes).toEqual([]);
    expect(await approvals.decide(call("web_fetch"), tool("web_fetch"))).toBe("allow");
    approvals.leavePlan();
    expect(approvals.mode).toBe("allow-all");
  });

  it("cycles ask, accept edits, plan with Shift+Tab, allow all only in a run started with it", () => {
    const plain = recorded().approvals;
    const seen = [0, 1, 2].map(() => {
      plain.cycleMode();
      return plain.mode;
    });
    expect(seen).toEqual(["accept-edits", "plan", "ask"]);
    expect(recorded({ allowAll: true }).approvals.cycle).toEqual([
      "ask",
      "accept-edits",
      "allow-all",
      "plan",
    ]);
  });
});

describe("planModeRestriction", () => {
  it("refuses write, edit, an escape and commands off the read-only list without a sandbox, naming plan mode", () => {
    for (const [name, args] of [
      ["write", { path: "a", content: "b" }],
      ["edit", { path: "a", old_string: "a", new_string: "b" }],
      ["bash", { command: "rm -rf build" }],
      ["bash", { command: "git status", unsandboxed_reason: "needs the network" }],
    ] as const) {
      const restriction = planModeRestriction(call(name, args), tool(name), undefined);
      expect(restriction && "refuse" in restriction ? restriction.refuse : "", name).toMatch(
        /^Refused: plan mode is on\..*\/plan off/s,
      );
    }
  });

  it("lets reading tools, web_fetch and read-only commands go on as usual", () => {
    expect(planModeRestriction(call("read", { path: "a" }), tool("read"), undefined)).toBeUndefined();
    expect(planModeRestriction(call("grep", { pattern: "a" }), tool("grep"), undefined)).toBeUndefined();
    expect(
      planModeRestriction(call("web_fetch", { url: "https://x" }), tool("web_fetch"), undefined),
    ).toBeUndefined();
    expect(
      planModeRestriction(call("bash", { command: "git log -3" }), tool("bash"), undefined),
    ).toBeUndefined();
  });
});

describe("isReadOnlyCommand", () => {
  it("accepts the reading programs and git's reading subcommands, piped or chained", () => {
    for (const line of [
      "git status",
      "git log --oneline -5",
      "git diff HEAD~1 -- src",
      "git show HEAD:README.md",
      "ls -la src",
      "cat a.txt | grep x",
      "rg -n TODO src && wc -l src/a.ts",
      "find . -name '*.ts'",
    ])
      expect(isReadOnlyCommand(line), line).toBe(true);
  });

  it("refuses writing, starting other programs, expansion and what it cannot read plainly", () => {
    for (const line of [
      "",
      "echo x > a.txt",
      "cat a >> b",
      "find . -delete",
      "find . -name x -exec rm {} ;",
      "rg --pre ./run.sh x",
      "git diff --output=patch.txt",
      "git commit -m x",
      "git checkout main",
      "ls; rm -rf /",
      "cat $(echo a)",
      "cat `echo a`",
      "npm test",
      "sed -i s/a/b/ file",
      "cat 'unclosed",
    ])
      expect(isReadOnlyCommand(line), line).toBe(false);
  });
});

describe("modePromptSection", () => {
  it("is empty in a run never in plan mode, then one section whose text alone says whether plan mode is on", () => {
    expect(modePromptSection("ask", false)).toBe("");
    const on = modePromptSection("plan", false);
    const off = modePromptSection("accept-edits", true);
    expect(on.startsWith(MODE_SECTION_HEADING)).toBe(true);
    expect(off.startsWith(MODE_SECTION_HEADING)).toBe(true);
    expect(on).toContain("Plan mode is on");
    expect(off).toContain("Plan mode is off");
    // Switching between the other modes changes no byte.
    expect(modePromptSection("ask", true)).toBe(modePromptSection("allow-all", true));
  });
});
