import { randomBytes } from "node:crypto";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { PermissionList } from "../permissions/permission-rule.js";
import { ConfigError } from "./config-error.js";
import { parseConfigText } from "./parse-config-text.js";

/**
 * Adds `rule` to `permissions[list]` of the config file `file` (created with its folder when
 * missing), keeping every other key and rule as it was; nothing is written when the rule is there
 * already. The new text is validated as panto reads it before it replaces the file, and replaces it
 * whole (written beside it, then renamed), so a crash leaves the old file or the new one. A file
 * that does not read as panto config is left alone: a ConfigError names it. Returns whether the
 * rule was added.
 */
export async function addPermissionRule(file: string, list: PermissionList, rule: string): Promise<boolean> {
  const text = await readFile(file, "utf8").catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    throw new ConfigError(`${file}: cannot read it (${error.code ?? error.message})`, { file });
  });
  // Validated as loading does: a file panto would refuse is not rewritten.
  if (text !== undefined) parseConfigText(text, file);
  const json: Record<string, unknown> = text === undefined ? {} : JSON.parse(text.replace(/^\uFEFF/, ""));
  const permissions = (json.permissions ?? {}) as Partial<Record<PermissionList, string[]>>;
  const rules = permissions[list] ?? [];
  if (rules.includes(rule)) return false;
  json.permissions = { ...permissions, [list]: [...rules, rule] };
  const next = `${JSON.stringify(json, null, 2)}\n`;
  parseConfigText(next, file);
  await mkdir(path.dirname(file), { recursive: true });
  const temporary = `${file}.${randomBytes(4).toString("hex")}.tmp`;
  try {
    await writeFile(temporary, next, { mode: 0o600 });
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw new ConfigError(`${file}: cannot write it (${(error as NodeJS.ErrnoException).code ?? error})`, {
      file,
    });
  }
  return true;
}
