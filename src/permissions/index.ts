export {
  decidePermission,
  type PermissionDecision,
  type RuleLayer,
  type SourcedRule,
} from "./decide-permission.js";
export {
  commandMatches,
  type PermissionCall,
  pathMatches,
  type RulePlaces,
  ruleCovers,
} from "./match-rule.js";
export {
  type ParsedRule,
  PERMISSION_LISTS,
  type PermissionList,
  type PermissionRule,
  parsePermissionRule,
  RULE_TOOL_NAMES,
  type RuleProblem,
} from "./permission-rule.js";
export { type SplitCommand, splitShellCommand } from "./split-shell-command.js";
export { suggestRules } from "./suggest-rules.js";
