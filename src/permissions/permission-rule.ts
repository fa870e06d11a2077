import { nearestNames } from "../core/did-you-mean.js";

/**
 * Permission rules in Claude Code's settings syntax: `Tool` or `Tool(specifier)`, kept in
 * `permissions.allow`, `permissions.ask` and `permissions.deny`. A rule copied from a
 * `.claude/settings.json` means the same here.
 */

/** The three lists, in the order they are consulted. */
export type PermissionList = "deny" | "ask" | "allow";
export const PERMISSION_LISTS: readonly PermissionList[] = ["deny", "ask", "allow"];

/** What a rule is about, after aliases (`Write`, `MultiEdit` are `Edit`; `Agent` is `Task`). */
export type PermissionRule =
  /** `Bash` (every command) or `Bash(npm run test:*)`, `Bash(git diff *)`, `Bash(npm test)`. */
  | { kind: "bash"; command: string | undefined }
  /** `Read(path-glob)`: read, ls, glob, grep (and `@path`); `Edit(path-glob)`: write and edit. */
  | { kind: "read" | "edit"; path: string | undefined }
  /** `WebFetch` or `WebFetch(domain:docs.rs)`. */
  | { kind: "web_fetch"; domain: string | undefined }
  | { kind: "web_search" }
  /** `mcp__server`, `mcp__server__*` (every tool of the server) or `mcp__server__tool`. */
  | { kind: "mcp"; server: string; tool: string | undefined }
  /** `Task` or `Task(agent-name)`: the subagent tool. */
  | { kind: "task"; agent: string | undefined }
  /** `Skill` or `Skill(name)`. */
  | { kind: "skill"; name: string | undefined }
  /** Tools named alone, without a specifier: `Glob`, `Grep`, `LS`, `Recall`. */
  | { kind: "tool"; tool: "glob" | "grep" | "ls" | "recall" };

/** A rule as written and what it means. */
export interface ParsedRule {
  text: string;
  rule: PermissionRule;
}

/** Tool names a rule may start with, as Claude Code spells them (and panto's own `Recall`). */
export const RULE_TOOL_NAMES = [
  "Bash",
  "Read",
  "Edit",
  "Write",
  "MultiEdit",
  "NotebookEdit",
  "Glob",
  "Grep",
  "LS",
  "WebFetch",
  "WebSearch",
  "Task",
  "Agent",
  "Skill",
  "Recall",
] as const;

const RULE = /^([A-Za-z_][\w-]*)(?:\((.*)\))?$/s;
const MCP = /^mcp__([^_\s()]+(?:_[^_\s()]+)*)(?:__(.+))?$/;

/** Why a rule cannot be read, and the tool name it was probably meant to be. */
export interface RuleProblem {
  message: string;
  suggestion?: string;
}

/** Reads one rule; a problem names what is wrong with it (the caller adds the file and key). */
export function parsePermissionRule(text: string): ParsedRule | RuleProblem {
  const trimmed = text.trim();
  if (trimmed === "") return { message: "a rule is empty" };
  const mcp = MCP.exec(trimmed);
  if (mcp !== null) {
    const tool = mcp[2] === undefined || mcp[2] === "*" ? undefined : mcp[2];
    return { text, rule: { kind: "mcp", server: mcp[1] ?? "", tool } };
  }
  const match = RULE.exec(trimmed);
  if (match === null) {
    return { message: `"${text}" is not a rule: write Tool or Tool(pattern), e.g. Bash(npm run test:*)` };
  }
  const name = match[1] ?? "";
  const raw = match[2];
  const specifier = raw === undefined || raw.trim() === "" || raw.trim() === "*" ? undefined : raw.trim();
  const rule = ruleFor(name, specifier);
  if (rule === undefined) {
    const suggestion = closestToolName(name);
    return {
      message: `unknown tool "${name}" in rule "${text}"${suggestion === undefined ? "" : ` (did you mean ${suggestion}?)`}; known: ${RULE_TOOL_NAMES.join(", ")}, mcp__server__tool`,
      ...(suggestion === undefined ? {} : { suggestion }),
    };
  }
  if ("message" in rule) return { message: `${rule.message} in rule "${text}"` };
  return { text, rule };
}

function ruleFor(name: string, specifier: string | undefined): PermissionRule | RuleProblem | undefined {
  switch (name) {
    case "Bash":
      return { kind: "bash", command: specifier };
    case "Read":
      return { kind: "read", path: specifier };
    case "Edit":
    case "Write":
    case "MultiEdit":
    case "NotebookEdit":
      return { kind: "edit", path: specifier };
    case "WebFetch":
      if (specifier === undefined) return { kind: "web_fetch", domain: undefined };
      if (!specifier.startsWith("domain:") || specifier.length === "domain:".length) {
        return { message: "WebFetch takes domain:HOST (e.g. WebFetch(domain:docs.rs))" };
      }
      return { kind: "web_fetch", domain: specifier.slice("domain:".length).toLowerCase() };
    case "WebSearch":
      return { kind: "web_search" };
    case "Task":
    case "Agent":
      return { kind: "task", agent: specifier };
    case "Skill":
      return { kind: "skill", name: specifier };
    case "Glob":
    case "Grep":
    case "LS":
    case "Recall":
      if (specifier !== undefined) {
        return { message: `${name} takes no pattern (Read(path) covers what it reads)` };
      }
      return { kind: "tool", tool: name.toLowerCase() as "glob" | "grep" | "ls" | "recall" };
    default:
      return undefined;
  }
}

/** The known tool name nearest to `name` (any case, or a few edits away), if one is near. */
function closestToolName(name: string): string | undefined {
  if (name.toLowerCase().startsWith("mcp")) return "mcp__server__tool";
  return nearestNames(name, RULE_TOOL_NAMES, { limit: 1 })[0];
}
