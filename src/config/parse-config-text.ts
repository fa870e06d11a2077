import type { z } from "zod";
import { PERMISSION_LISTS, parsePermissionRule } from "../permissions/permission-rule.js";
import { ConfigError } from "./config-error.js";
import { expandShorthands, withoutByteOrderMark, withoutSchemaKey } from "./config-json.js";
import { allowedKeys, configSchema, KEY_RULES, ruleKey } from "./config-schema.js";
import { locateJsonError } from "./locate-json-error.js";
import type { PantoConfig, PermissionsConfig } from "./panto-config.js";
import { quoteForMessage } from "./quote-for-message.js";

/**
 * Parses and validates one config file's text. Pure: `file` is only used in messages. Throws a
 * ConfigError listing every problem, one per line, each naming the file and the key (or the
 * line:column of a JSON syntax error).
 */
export function parseConfigText(text: string, file: string): PantoConfig {
  const json = expandShorthands(parseJson(withoutByteOrderMark(text), file));
  const result = configSchema.safeParse(json, { reportInput: true });
  if (!result.success) {
    const problems = result.error.issues.flatMap((issue) => describeIssue(issue, json));
    const first = result.error.issues[0];
    const key = first === undefined ? undefined : issueKey(first);
    throw new ConfigError(problems.map((problem) => `${file}: ${problem}`).join("\n"), {
      file,
      ...(key === undefined || key === "" ? {} : { key }),
    });
  }
  // The file's own JSON, not zod's copy of it: the schema has no defaults and no transforms
  // (test/config/config-verdicts.test.ts walks it to hold that), so the two hold the same values, and
  // the file's key order is kept. A text found valid before is read as just this (config-json.ts).
  const config = withoutSchemaKey(json as object) as PantoConfig;
  checkPermissionRules(config.permissions, file);
  return config;
}

/** Each permission rule must read as a rule; a bad one is named by file, list and 0-based index. */
function checkPermissionRules(
  permissions: Partial<Record<keyof PermissionsConfig, string[] | undefined>> | undefined,
  file: string,
): void {
  const problems: Array<{ key: string; message: string }> = [];
  for (const list of PERMISSION_LISTS) {
    (permissions?.[list] ?? []).forEach((text, index) => {
      const parsed = parsePermissionRule(text);
      if ("message" in parsed)
        problems.push({ key: `permissions.${list}[${index}]`, message: parsed.message });
    });
  }
  const [first] = problems;
  if (first === undefined) return;
  throw new ConfigError(
    problems.map((problem) => `${file}: "${problem.key}": ${problem.message}`).join("\n"),
    {
      file,
      key: first.key,
    },
  );
}

function parseJson(text: string, file: string): unknown {
  if (text.trim() === "") {
    throw new ConfigError(
      `${file}: file is empty; expected a JSON object such as {"model": "openai/gpt-5"}`,
      {
        file,
      },
    );
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    const location = locateJsonError(text);
    const where = location === undefined ? file : `${file}:${location.line}:${location.column}`;
    const reason = location?.reason ?? (error as Error).message;
    throw new ConfigError(`${where}: invalid JSON: ${reason}`, { file, cause: error });
  }
}

/** The dotted path an issue is about; for an unknown key, the unknown key itself. */
function issueKey(issue: z.core.$ZodIssue): string {
  const base = issue.path.map(String).join(".");
  if (issue.code !== "unrecognized_keys") return base;
  const [key] = issue.keys;
  return base === "" ? (key ?? "") : `${base}.${key}`;
}

function describeIssue(issue: z.core.$ZodIssue, input: unknown): string[] {
  const name = issue.path.map(String).join(".");
  if (issue.code === "unrecognized_keys") {
    const allowed = allowedKeys(issue.path).join(", ");
    return issue.keys.map(
      (key) => `unknown key ${quoteForMessage(name === "" ? key : `${name}.${key}`)} (allowed: ${allowed})`,
    );
  }
  if (issue.code === "invalid_key") {
    const provider = String(issue.path[issue.path.length - 1]);
    if (issue.path[0] === "prices" || issue.path[0] === "models")
      return [
        `model ${quoteForMessage(provider)} in "${String(issue.path[0])}" must be a "provider/model" id, e.g. "anthropic/claude-sonnet-4-5"`,
      ];
    return [`provider name ${quoteForMessage(provider)} in "providers" must not contain "/" or spaces`];
  }
  const value = valueAt(input, issue.path);
  if (value === undefined) return [`${quoteForMessage(name)} is required`];
  const rule = KEY_RULES[ruleKey(issue.path)] ?? issue.message;
  const subject = name === "" ? "the file" : quoteForMessage(name);
  return [`${subject} ${rule} (got ${describeValue(value)})`];
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let current = input;
  for (const segment of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<PropertyKey, unknown>)[segment];
  }
  return current;
}

function describeValue(value: unknown): string {
  if (Array.isArray(value)) return "an array";
  if (value === null) return "null";
  if (typeof value === "object") return "an object";
  const text = typeof value === "string" ? quoteForMessage(value) : JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}
