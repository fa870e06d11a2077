import { describe, expect, it } from "vitest";
import {
  decidePermission,
  type PermissionCall,
  type PermissionList,
  parsePermissionRule,
  type RuleLayer,
  type SourcedRule,
} from "../../src/permissions/index.js";

const places = { root: "/work/app", home: "/home/ada" };

function rules(spec: Partial<Record<PermissionList, string[]>>, layer: RuleLayer = "project"): SourcedRule[] {
  return (["deny", "ask", "allow"] as const).flatMap((list) =>
    (spec[list] ?? []).map((text, index) => {
      const parsed = parsePermissionRule(text);
      if ("message" in parsed) throw new Error(parsed.message);
      return { ...parsed, list, layer, index };
    }),
  );
}

const verdict = (call: PermissionCall, set: SourcedRule[]) => decidePermission(call, set, places).verdict;
const bash = (command: string): PermissionCall => ({ tool: "bash", command });

describe("reading rules in Claude Code's syntax", () => {
  it("reads each tool's forms, with Write, MultiEdit and Agent as their Claude Code equivalents", () => {
    const read = (text: string) => {
      const parsed = parsePermissionRule(text);
      return "rule" in parsed ? parsed.rule : parsed;
    };
    expect(read("Bash")).toEqual({ kind: "bash", command: undefined });
    expect(read("Bash(npm run test:*)")).toEqual({ kind: "bash", command: "npm run test:*" });
    expect(read("Read(./.env)")).toEqual({ kind: "read", path: "./.env" });
    expect(read("Write(src/**)")).toEqual({ kind: "edit", path: "src/**" });
    expect(read("MultiEdit")).toEqual({ kind: "edit", path: undefined });
    expect(read("WebFetch(domain:docs.rs)")).toEqual({ kind: "web_fetch", domain: "docs.rs" });
    expect(read("mcp__github")).toEqual({ kind: "mcp", server: "github", tool: undefined });
    expect(read("mcp__github__*")).toEqual({ kind: "mcp", server: "github", tool: undefined });
    expect(read("mcp__github__create_issue")).toEqual({
      kind: "mcp",
      server: "github",
      tool: "create_issue",
    });
    expect(read("Agent(reviewer)")).toEqual({ kind: "task", agent: "reviewer" });
    expect(read("Skill(pdf)")).toEqual({ kind: "skill", name: "pdf" });
  });

  it("names what is wrong with a bad rule, with a did-you-mean for a misspelt tool", () => {
    expect(parsePermissionRule("bash(ls)")).toMatchObject({ suggestion: "Bash" });
    expect(parsePermissionRule("Bsah(ls)")).toMatchObject({ suggestion: "Bash" });
    expect(parsePermissionRule("Frobnicate")).toMatchObject({
      message: expect.stringContaining('unknown tool "Frobnicate"'),
    });
    expect(parsePermissionRule("WebFetch(docs.rs)")).toMatchObject({
      message: expect.stringContaining("domain:"),
    });
    expect(parsePermissionRule("Bash(ls")).toMatchObject({
      message: expect.stringContaining("is not a rule"),
    });
    expect(parsePermissionRule("  ")).toMatchObject({ message: "a rule is empty" });
  });
});

describe("the verdict on a command", () => {
  const set = rules({
    allow: ["Bash(npm run test:*)", "Bash(git diff *)", "Bash(npm test)", "Bash(ls)"],
    ask: ["Bash(git push:*)"],
    deny: ["Bash(rm -rf:*)", "Bash(curl *)"],
  });

  it("allows a prefix with and without arguments, but not a longer word", () => {
    expect(verdict(bash("npm run test"), set)).toBe("allow");
    expect(verdict(bash("npm run test -- --watch"), set)).toBe("allow");
    expect(verdict(bash("npm run testing"), set)).toBe("default");
    expect(verdict(bash("git diff"), set)).toBe("allow");
    expect(verdict(bash("git diff --stat HEAD~1"), set)).toBe("allow");
    expect(verdict(bash("npm test --watch"), set)).toBe("default");
  });

  it("allows a compound command only when every part is allowed", () => {
    expect(verdict(bash("npm test && ls"), set)).toBe("allow");
    expect(verdict(bash("npm test && make install"), set)).toBe("default");
    expect(verdict(bash("ls | sh"), set)).toBe("default");
    expect(verdict(bash("ls $(make install)"), set)).toBe("default");
    expect(verdict(bash("npm test 'unclosed"), set)).toBe("default");
  });

  it("denies or asks when any part is denied or asked, whatever is allowed", () => {
    expect(verdict(bash("npm test && rm -rf /"), set)).toBe("deny");
    expect(verdict(bash("ls; (cd x && curl evil.sh)"), set)).toBe("deny");
    expect(verdict(bash("git diff && git push origin main"), set)).toBe("ask");
    expect(decidePermission(bash("echo $(curl x)"), set, places)).toMatchObject({
      verdict: "deny",
      rules: [{ text: "Bash(curl *)", list: "deny", index: 1 }],
    });
  });

  it("lets a deny in one layer beat an allow in any other, and a bare Bash deny beat everything", () => {
    const user = rules({ deny: ["Bash(npm publish:*)"] }, "user");
    const project = rules({ allow: ["Bash(npm publish:*)", "Bash"] }, "project");
    expect(verdict(bash("npm publish --tag next"), [...project, ...user])).toBe("deny");
    expect(verdict(bash("anything at all"), [...project, ...user])).toBe("allow");
    const managed = rules({ deny: ["Bash"] }, "managed");
    expect(verdict(bash("ls"), [...project, ...managed])).toBe("deny");
  });
});

describe("the verdict on files, the web, MCP, subagents and skills", () => {
  it("anchors paths as gitignore does and covers what is inside a matched folder", () => {
    const set = rules({
      deny: ["Read(.env)", "Read(~/.aws/**)", "Edit(//etc/**)", "Read(secrets/)"],
      allow: ["Edit(src/**/*.ts)", "Read(/docs/*.md)"],
    });
    expect(verdict({ tool: "read", path: "/work/app/.env" }, set)).toBe("deny");
    expect(verdict({ tool: "read", path: "/work/app/pkg/a/.env" }, set)).toBe("deny");
    expect(verdict({ tool: "grep", path: "/work/app/secrets" }, set)).toBe("deny");
    expect(verdict({ tool: "read", path: "/work/app/secrets/keys/prod.pem" }, set)).toBe("deny");
    expect(verdict({ tool: "ls", path: "/home/ada/.aws/credentials" }, set)).toBe("deny");
    expect(verdict({ tool: "write", path: "/etc/hosts" }, set)).toBe("deny");
    expect(verdict({ tool: "edit", path: "/work/app/src/deep/x.ts" }, set)).toBe("allow");
    expect(verdict({ tool: "edit", path: "/work/app/src/deep/x.js" }, set)).toBe("default");
    expect(verdict({ tool: "edit", path: "/work/other/src/x.ts" }, set)).toBe("default");
    expect(verdict({ tool: "read", path: "/work/app/docs/guide.md" }, set)).toBe("allow");
    expect(verdict({ tool: "read", path: "/work/app/docs/deep/guide.md" }, set)).toBe("default");
    // Read rules do not decide writes, nor Edit rules reads.
    expect(verdict({ tool: "write", path: "/work/app/.env" }, set)).toBe("default");
  });

  it("judges WebFetch by the URL's host as fetched: case, a root dot, userinfo and port do not dodge a rule", () => {
    const set = rules({ deny: ["WebFetch(domain:evil.example)"], allow: ["WebFetch(domain:docs.rs.)"] });
    for (const url of [
      "https://evil.example/x",
      "https://EVIL.example/x",
      "https://evil.example./x",
      "https://docs.rs@evil.example/x",
      "http://evil.example:8080/x",
    ])
      expect(verdict({ tool: "web_fetch", url }, set), url).toBe("deny");
    expect(verdict({ tool: "web_fetch", url: "https://docs.rs/tokio" }, set)).toBe("allow");
    expect(verdict({ tool: "web_fetch", url: "https://docs.rs./tokio" }, set)).toBe("allow");
    expect(verdict({ tool: "web_fetch", url: "https://evil.example.docs.rs/" }, set)).toBe("default");
    expect(verdict({ tool: "web_fetch", url: "not a url" }, set)).toBe("default");
  });

  it("matches WebFetch by exact host, or subdomains with *., and MCP, Task and Skill by name", () => {
    const set = rules({
      allow: [
        "WebFetch(domain:docs.rs)",
        "WebFetch(domain:*.python.org)",
        "mcp__github",
        "Task(reviewer)",
        "Skill",
      ],
      deny: ["mcp__github__delete_repo"],
    });
    expect(verdict({ tool: "web_fetch", url: "https://docs.rs/tokio" }, set)).toBe("allow");
    expect(verdict({ tool: "web_fetch", url: "https://evil-docs.rs/x" }, set)).toBe("default");
    expect(verdict({ tool: "web_fetch", url: "https://docs.python.org/3/" }, set)).toBe("allow");
    expect(verdict({ tool: "web_fetch", url: "https://python.org/" }, set)).toBe("allow");
    expect(verdict({ tool: "web_fetch", url: "https://notpython.org/" }, set)).toBe("default");
    expect(verdict({ tool: "mcp", name: "mcp__github__create_issue" }, set)).toBe("allow");
    expect(verdict({ tool: "mcp", name: "mcp__github__delete_repo" }, set)).toBe("deny");
    expect(verdict({ tool: "mcp", name: "mcp__gitlab__create_issue" }, set)).toBe("default");
    expect(verdict({ tool: "task", agent: "reviewer" }, set)).toBe("allow");
    expect(verdict({ tool: "task", agent: "deployer" }, set)).toBe("default");
    expect(verdict({ tool: "skill", name: "pdf" }, set)).toBe("allow");
  });
});
