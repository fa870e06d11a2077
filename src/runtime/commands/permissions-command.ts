import type { SourcedRule } from "../../permissions/decide-permission.js";
import { info, usageError } from "../command-outcome.js";
import { describePermissions, rulesInOrder } from "../describe-permissions.js";
import type { CommandHandler } from "../run-context.js";

/**
 * `/permissions`: the rules in force, numbered; `/permissions remove N` or `/permissions remove
 * RULE` takes one out of force at once, and out of the file it came from (the user config, the
 * project's or its local file; written whole, validated). Managed rules are refused: only whoever
 * installs the managed file can change them.
 */
export const runPermissionsCommand: CommandHandler = async (run, args) => {
  const rules = run.approvals.rules;
  if (args === "") return info("permissions", describePermissions(rules, { numbered: true }));
  const remove = /^remove(?:\s+([\s\S]*))?$/.exec(args);
  const target = remove?.[1]?.trim() ?? "";
  if (remove === null || target === "")
    return usageError(
      `/permissions takes no argument, or "remove" and a rule's number from the list or the rule as written (e.g. /permissions remove 2, /permissions remove Bash(npm run test:*)); got "${args}"`,
    );
  const found = findRule(rulesInOrder(rules), target);
  if (typeof found === "string") return usageError(found);
  if (found.layer === "managed")
    return usageError(
      `${found.text} comes from the managed settings (${found.file ?? "the managed file"}), which panto cannot change: ask whoever installed that file`,
      "managed-rule",
    );
  const runRules = run.approvals.runRules;
  if (runRules === undefined) return usageError("this run cannot change its permission rules");
  let inFile: boolean;
  try {
    inFile = await runRules.remove(found);
  } catch (error) {
    return usageError(error instanceof Error ? error.message : String(error), "config");
  }
  return info("permissions", removedText(found, inFile, run.approvals.rules));
};

/** The rule `target` names (its number in the list, or its text), or why there is none to remove. */
function findRule(ordered: readonly SourcedRule[], target: string): SourcedRule | string {
  if (ordered.length === 0) return "there are no permission rules to remove";
  if (/^\d+$/.test(target)) {
    const rule = ordered[Number(target) - 1];
    return (
      rule ??
      `/permissions remove needs a number from 1 to ${ordered.length} (/permissions lists them); got ${target}`
    );
  }
  const matches = ordered.filter((rule) => rule.text.trim() === target);
  const [only] = matches;
  if (only === undefined)
    return `no permission rule ${target} is in force (/permissions lists them, numbered)`;
  if (matches.length === 1) return only;
  const places = matches.map((rule) => `${ordered.indexOf(rule) + 1} (${sourceOf(rule)})`);
  return `${target} is in force ${matches.length} times: ${places.join(", ")}; remove one by its number`;
}

function removedText(rule: SourcedRule, inFile: boolean, left: readonly SourcedRule[]): string {
  const where =
    rule.file === undefined
      ? `Removed ${rule.text} (${rule.list}, this session only): no longer in force.`
      : inFile
        ? `Removed ${rule.text} (permissions.${rule.list}[${rule.index}]) from ${rule.file}: no longer in force.`
        : `${rule.file} no longer held ${rule.text} (changed since panto read it); it is out of force in this session too.`;
  const still = left.filter((other) => other.list === rule.list && other.text.trim() === rule.text.trim());
  if (still.length === 0) return where;
  return `${where} The same ${rule.list} rule still comes from ${still.map(sourceOf).join(", ")}.`;
}

function sourceOf(rule: SourcedRule): string {
  return rule.file === undefined
    ? `${rule.list}, this session`
    : `permissions.${rule.list}[${rule.index}] in ${rule.file}`;
}
