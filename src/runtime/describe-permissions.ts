import type { SourcedRule } from "../permissions/decide-permission.js";
import type { PermissionList } from "../permissions/permission-rule.js";

const LISTS: readonly PermissionList[] = ["deny", "ask", "allow"];

/** The rules in the order they are consulted and listed (deny, ask, allow): `/permissions` numbers them from 1 in this order. */
export function rulesInOrder(rules: readonly SourcedRule[]): SourcedRule[] {
  return LISTS.flatMap((list) => rules.filter((rule) => rule.list === list));
}

/**
 * `/permissions` and `panto permissions`: the rules in force, in the order they are consulted, each
 * with its source. `numbered` (`/permissions`): each rule with the number `/permissions remove`
 * takes, and how to remove one.
 */
export function describePermissions(
  rules: readonly SourcedRule[],
  options: { numbered?: boolean } = {},
): string {
  if (rules.length === 0) {
    return [
      "No permission rules: the approval mode decides every call.",
      'Add them under "permissions" in $PANTO_HOME/config.json, .panto/config.json or .panto/config.local.json,',
      'e.g. {"permissions": {"allow": ["Bash(npm run test:*)"], "deny": ["Read(./.env)"]}} (README: Permission rules).',
    ].join("\n");
  }
  const width = Math.max(...rules.map((rule) => rule.text.length));
  const ordered = rulesInOrder(rules);
  const numberWidth = String(ordered.length).length;
  const sections = LISTS.flatMap((list) => {
    const inList = ordered.filter((rule) => rule.list === list);
    if (inList.length === 0) return [];
    return [
      `${list}:`,
      ...inList.map((rule) => {
        const number =
          options.numbered === true ? `${String(ordered.indexOf(rule) + 1).padStart(numberWidth)}. ` : "";
        return `  ${number}${rule.text.padEnd(width)}  ${rule.layer.padEnd(7)}  permissions.${list}[${rule.index}]${rule.file === undefined ? "" : ` in ${rule.file}`}`;
      }),
    ];
  });
  return [
    ...sections,
    "Any deny wins, then any ask, then allow; calls no rule covers follow the approval mode.",
    ...(options.numbered === true
      ? ["Remove one with /permissions remove N (or the rule as written); managed rules cannot be removed."]
      : []),
  ].join("\n");
}

/** The rules as `panto permissions --json` prints them. */
export function permissionsJson(rules: readonly SourcedRule[]): Array<Record<string, unknown>> {
  return rulesInOrder(rules).map((rule) => ({
    list: rule.list,
    rule: rule.text,
    layer: rule.layer,
    index: rule.index,
    ...(rule.file === undefined ? {} : { file: rule.file }),
  }));
}
