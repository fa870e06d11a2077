import { realpathSync } from "node:fs";
import path from "node:path";
import type { RuleVerdict } from "../agent/index.js";
import type { ToolCallBlock } from "../core/index.js";
import {
  decidePermission,
  type PermissionCall,
  type RulePlaces,
  type SourcedRule,
} from "../permissions/index.js";
import type { Tool } from "../tools/index.js";

/**
 * The agent's `permissionRules` for a run: each call judged by config "permissions" (every file's
 * rules, deny first). Undefined without rules, so a run without them pays nothing.
 */
export function permissionRulesCheck(
  rules: readonly SourcedRule[],
  places: RulePlaces,
  cwd: string,
): ((call: ToolCallBlock, tool: Tool) => RuleVerdict | undefined) | undefined {
  if (rules.length === 0) return undefined;
  return (call) => {
    const target = permissionCallOf(call, cwd);
    if (target === undefined) return undefined;
    const decision = decidePermission(target, rules, places);
    if (decision.verdict === "default") return undefined;
    return { verdict: decision.verdict, rule: decision.rules.map(describeRule).join(" and ") };
  };
}

/**
 * The rule that denies reading a file (an absolute path, symlinks resolved), for what `grep` and
 * `glob` show; undefined without deny rules, so the searches pay nothing then.
 */
export function readDeniedCheck(
  rules: readonly SourcedRule[],
  places: RulePlaces,
): ((file: string) => string | undefined) | undefined {
  if (!rules.some((rule) => rule.list === "deny")) return undefined;
  return (file) => {
    const decision = decidePermission({ tool: "read", path: realPath(file) }, rules, places);
    return decision.verdict === "deny" ? decision.rules.map(describeRule).join(" and ") : undefined;
  };
}

/** `Bash(rm:*)` (permissions.deny[0] in /p/.panto/config.json), as the model and the user are told. */
export function describeRule(rule: SourcedRule): string {
  const where = `permissions.${rule.list}[${rule.index}]`;
  return `${rule.text} (${rule.file === undefined ? `${where}, this session` : `${where} in ${rule.file}`})`;
}

const FOLDER_TOOLS = new Set(["ls", "glob", "grep"]);

/** A call as rules see it: its command, its path (absolute, symlinks resolved), its agent or skill. */
export function permissionCallOf(call: ToolCallBlock, cwd: string): PermissionCall | undefined {
  const args = (call.arguments ?? {}) as Record<string, unknown>;
  const text = (key: string): string | undefined => (typeof args[key] === "string" ? args[key] : undefined);
  const name = call.name;
  if (name === "bash") return { tool: "bash", command: text("command") ?? "" };
  if (name === "read" || FOLDER_TOOLS.has(name)) {
    const given = text("path") ?? (name === "read" ? undefined : ".");
    if (given === undefined) return undefined;
    return { tool: name as "read" | "ls" | "glob" | "grep", path: realPath(path.resolve(cwd, given)) };
  }
  if (name === "write" || name === "edit") {
    const given = text("path");
    return given === undefined ? undefined : { tool: name, path: realPath(path.resolve(cwd, given)) };
  }
  if (name === "task") return { tool: "task", agent: text("agent") ?? "general" };
  if (name === "skill") return { tool: "skill", name: text("name") ?? "" };
  if (name === "recall") return { tool: "recall" };
  if (name === "web_fetch") return { tool: "web_fetch", url: text("url") ?? "" };
  if (name.startsWith("mcp__")) return { tool: "mcp", name };
  return undefined;
}

/**
 * The path with symlinks resolved, so a rule cannot be dodged through a link: the longest part
 * that exists is resolved and the rest (a file about to be created) appended.
 */
function realPath(target: string): string {
  let existing = target;
  const rest: string[] = [];
  for (;;) {
    try {
      return path.join(realpathSync(existing), ...rest);
    } catch {
      const parent = path.dirname(existing);
      if (parent === existing) return target;
      rest.unshift(path.basename(existing));
      existing = parent;
    }
  }
}
