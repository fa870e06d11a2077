import { describe, expect, it } from "vitest";
import {
  decidePermission,
  type PermissionCall,
  parsePermissionRule,
  type SourcedRule,
  suggestRules,
} from "../../src/permissions/index.js";

const places = { root: "/work/app", home: "/home/me" };

/** The suggested rules as an allow list, and whether they decide `call` as allowed. */
function allows(rules: readonly string[], call: PermissionCall): string {
  const sourced: SourcedRule[] = rules.map((text, index) => {
    const parsed = parsePermissionRule(text);
    if (!("rule" in parsed)) throw new Error(`${text}: ${parsed.message}`);
    return { ...parsed, list: "allow", layer: "session", index };
  });
  return decidePermission(call, sourced, places).verdict;
}

describe("suggestRules: what an 'always' answer allows from now on", () => {
  it.each([
    ["npm test", ["Bash(npm test:*)"]],
    ["git diff -- src/a.ts", ["Bash(git diff:*)"]],
    ["npm run test -- --watch", ["Bash(npm run test:*)"]],
    ["ls -la", ["Bash(ls:*)"]],
    ["cat src/a.ts | grep foo", ["Bash(cat:*)", "Bash(grep foo:*)"]],
    ["npm test && npm test", ["Bash(npm test:*)"]],
  ])("a command is named by its program and subcommand: %s", (command, expected) => {
    const rules = suggestRules({ tool: "bash", command }, places);
    expect(rules).toEqual(expected);
    // Each rule parses, and together they allow the very command that was approved.
    expect(allows(rules, { tool: "bash", command })).toBe("allow");
  });

  it("a suggested command rule does not cover another subcommand", () => {
    const rules = suggestRules({ tool: "bash", command: "git diff HEAD" }, places);
    expect(allows(rules, { tool: "bash", command: "git push origin main" })).toBe("default");
  });

  it("suggests nothing for a command line that does not parse", () => {
    expect(suggestRules({ tool: "bash", command: "echo 'unclosed" }, places)).toEqual([]);
  });

  it("covers a file tool's folder inside the project, a root file by itself, and outside by its absolute folder", () => {
    const inSrc = { tool: "edit", path: "/work/app/src/parser/a.ts" } as const;
    expect(suggestRules(inSrc, places)).toEqual(["Edit(./src/parser/**)"]);
    expect(allows(["Edit(./src/parser/**)"], { tool: "write", path: "/work/app/src/parser/deep/b.ts" })).toBe(
      "allow",
    );
    expect(allows(["Edit(./src/parser/**)"], { tool: "write", path: "/work/app/src/other.ts" })).toBe(
      "default",
    );
    const atRoot = { tool: "write", path: "/work/app/README.md" } as const;
    expect(suggestRules(atRoot, places)).toEqual(["Edit(./README.md)"]);
    expect(allows(suggestRules(atRoot, places), atRoot)).toBe("allow");
    const outside = { tool: "write", path: "/tmp/scratch/x.txt" } as const;
    expect(suggestRules(outside, places)).toEqual(["Edit(//tmp/scratch/**)"]);
    expect(allows(suggestRules(outside, places), outside)).toBe("allow");
  });

  it("names a fetch by its host, an MCP tool by its name, a subagent and a skill by theirs", () => {
    expect(suggestRules({ tool: "web_fetch", url: "https://docs.rs/serde" }, places)).toEqual([
      "WebFetch(domain:docs.rs)",
    ]);
    expect(suggestRules({ tool: "web_fetch", url: "not a url" }, places)).toEqual([]);
    expect(suggestRules({ tool: "mcp", name: "mcp__github__create_issue" }, places)).toEqual([
      "mcp__github__create_issue",
    ]);
    expect(suggestRules({ tool: "task", agent: "reviewer" }, places)).toEqual(["Task(reviewer)"]);
    expect(suggestRules({ tool: "skill", name: "pdf" }, places)).toEqual(["Skill(pdf)"]);
  });
});
