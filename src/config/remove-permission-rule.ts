import type { PermissionList } from "../permissions/permission-rule.js";
import { rewriteConfigFile } from "./rewrite-config-file.js";

/**
 * Removes `rule` from `permissions[list]` of the config file `file`: the one at `index` when it
 * is that rule (a list may hold it twice), else its first occurrence. Every other key and rule is
 * kept; an emptied list, then an emptied "permissions", is dropped. Validated and written whole as
 * rewriteConfigFile says. Returns false, writing nothing, when the file (no longer) holds the rule.
 */
export async function removePermissionRule(
  file: string,
  list: PermissionList,
  rule: string,
  index?: number,
): Promise<boolean> {
  return rewriteConfigFile(file, (json) => {
    const permissions = json.permissions as Partial<Record<PermissionList, string[]>> | undefined;
    const rules = permissions?.[list];
    if (permissions === undefined || rules === undefined) return false;
    const at = index !== undefined && rules[index] === rule ? index : rules.indexOf(rule);
    if (at < 0) return false;
    const kept = rules.filter((_, position) => position !== at);
    // The keys stay in their order: the file reads as the user wrote it, less one rule.
    const next = Object.entries(permissions).flatMap(([key, value]) =>
      key !== list ? [[key, value]] : kept.length > 0 ? [[key, kept]] : [],
    );
    if (next.length > 0) json.permissions = Object.fromEntries(next);
    else Reflect.deleteProperty(json, "permissions");
    return true;
  });
}
