import type { PermissionList } from "../permissions/permission-rule.js";
import { rewriteConfigFile } from "./rewrite-config-file.js";

/**
 * Adds `rule` to `permissions[list]` of the config file `file` (created with its folder when
 * missing), keeping every other key and rule as it was; nothing is written when the rule is there
 * already. Validated and written whole as rewriteConfigFile says; a file that does not read as
 * panto config is left alone (a ConfigError names it). Returns whether the rule was added.
 */
export async function addPermissionRule(file: string, list: PermissionList, rule: string): Promise<boolean> {
  return rewriteConfigFile(file, (json) => {
    const permissions = (json.permissions ?? {}) as Partial<Record<PermissionList, string[]>>;
    const rules = permissions[list] ?? [];
    if (rules.includes(rule)) return false;
    json.permissions = { ...permissions, [list]: [...rules, rule] };
    return true;
  });
}
