import { type PermissionCall, type RulePlaces, ruleCovers } from "./match-rule.js";
import type { ParsedRule, PermissionList } from "./permission-rule.js";
import { splitShellCommand } from "./split-shell-command.js";

/** Where a rule came from, most trusted first. */
export type RuleLayer = "managed" | "user" | "project" | "local" | "session";

export interface SourcedRule extends ParsedRule {
  list: PermissionList;
  layer: RuleLayer;
  /** The file the rule was read from; none for rules of this session only. */
  file?: string;
  /** Its position in its list, for messages as `permissions.allow[1]`. */
  index: number;
}

/**
 * The rules' verdict on one call: "deny" if any rule of any layer denies it, else "ask" if any
 * asks, else "allow" if allow rules cover it, else "default" (the approval mode decides). The
 * order is Claude Code's, and it is also what keeps layers from loosening each other: a deny or
 * an ask anywhere cannot be undone by an allow anywhere, so a project cannot allow what the
 * user's own config (or the managed settings) deny. A command is judged by its simple commands
 * (`a && b`, pipes, subshells, `$(…)`): denied or asked if any part is, allowed only if every
 * part is allowed (and the line parses).
 */
export type PermissionDecision =
  | { verdict: "deny" | "ask" | "allow"; rules: SourcedRule[] }
  | { verdict: "default" };

export function decidePermission(
  call: PermissionCall,
  rules: readonly SourcedRule[],
  places: RulePlaces,
): PermissionDecision {
  const inList = (list: PermissionList) => rules.filter((rule) => rule.list === list);
  if (call.tool !== "bash") {
    for (const list of ["deny", "ask", "allow"] as const) {
      const found = inList(list).find((rule) => ruleCovers(rule.rule, call, places));
      if (found !== undefined) return { verdict: list, rules: [found] };
    }
    return { verdict: "default" };
  }
  const split = splitShellCommand(call.command);
  const parts = split.parts.length > 0 ? split.parts : [call.command];
  for (const list of ["deny", "ask"] as const) {
    // The whole line too: a rule for a command the splitter did not see as one still applies.
    const found = inList(list).find((rule) =>
      [...parts, call.command].some((part) => ruleCovers(rule.rule, call, places, part)),
    );
    if (found !== undefined) return { verdict: list, rules: [found] };
  }
  const allows = inList("allow");
  const wholeTool = allows.find((rule) => rule.rule.kind === "bash" && rule.rule.command === undefined);
  if (wholeTool !== undefined) return { verdict: "allow", rules: [wholeTool] };
  if (!split.complete) return { verdict: "default" };
  const used: SourcedRule[] = [];
  for (const part of parts) {
    const found = allows.find((rule) => ruleCovers(rule.rule, call, places, part));
    if (found === undefined) return { verdict: "default" };
    if (!used.includes(found)) used.push(found);
  }
  return { verdict: "allow", rules: used };
}
