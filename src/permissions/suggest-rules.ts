import path from "node:path";
import type { PermissionCall, RulePlaces } from "./match-rule.js";
import { splitShellCommand } from "./split-shell-command.js";

/** A word that reads as a subcommand (`git diff`, `npm run`), not an argument (a path, a flag). */
const SUBCOMMAND = /^[a-z][a-z0-9-]*$/;

/**
 * The allow rules an "always" answer would add for `call`, narrow enough to mean what the user
 * approved: for a command, each simple command's program and subcommand (`git diff -- a.ts` ->
 * `Bash(git diff:*)`, `npm run test` -> `Bash(npm run test:*)`); for a file tool, the folder of the
 * path (`Edit(src/parser/**)`, a file at the root itself); for a fetch, the host; for an MCP tool, the
 * tool. Empty when no rule can say it (a command line that does not parse, a fetch without a host).
 */
export function suggestRules(call: PermissionCall, places: RulePlaces): string[] {
  switch (call.tool) {
    case "bash":
      return commandRules(call.command);
    case "read":
    case "ls":
    case "glob":
    case "grep":
      return [`Read(${pathPattern(call.path, places, call.tool !== "read")})`];
    case "write":
    case "edit":
      return [`Edit(${pathPattern(call.path, places, false)})`];
    case "web_fetch": {
      const host = hostOf(call.url);
      return host === undefined ? [] : [`WebFetch(domain:${host})`];
    }
    case "web_search":
      return ["WebSearch"];
    case "mcp":
      return [call.name];
    case "task":
      return [`Task(${call.agent})`];
    case "skill":
      return [`Skill(${call.name})`];
    case "recall":
      return ["Recall"];
  }
}

function commandRules(command: string): string[] {
  const split = splitShellCommand(command);
  if (!split.complete || split.parts.length === 0) return [];
  const rules = new Set<string>();
  for (const part of split.parts) {
    const words = part.trim().split(/\s+/);
    const program = words[0];
    if (program === undefined || program === "" || /[*()]/.test(program)) return [];
    // Up to two subcommand words (`npm run test`), stopping at the first argument.
    const prefix = [program];
    for (const word of words.slice(1, 3)) {
      if (!SUBCOMMAND.test(word)) break;
      prefix.push(word);
    }
    // A lone program word with arguments: the program; `npm run X`: X is part of what was approved.
    rules.add(`Bash(${prefix.slice(0, prefixLength(prefix)).join(" ")}:*)`);
  }
  return [...rules];
}

/** Two words (`git diff`), three for runners whose second word names a script (`npm run test`). */
function prefixLength(prefix: readonly string[]): number {
  const runner = prefix[1] === "run" || prefix[1] === "exec" || prefix[0] === "npx";
  return Math.min(prefix.length, runner ? 3 : 2);
}

/**
 * A path pattern in the rules' anchoring: inside the project, from its root (`src/parser/**`, a
 * file at the root as `./name`); outside, absolute (`//abs/dir/**`). `folder`: the path is a
 * folder searched or listed, covered with everything in it.
 */
function pathPattern(target: string, places: RulePlaces, folder: boolean): string {
  const relative = path.relative(places.root, target);
  const inside = relative !== "" && !relative.startsWith("..") && !path.isAbsolute(relative);
  if (folder) {
    if (relative === "") return "./**";
    return inside ? `./${toPosix(relative)}/**` : `/${toPosix(target)}/**`;
  }
  const dir = path.dirname(relative);
  if (inside && dir === ".") return `./${toPosix(relative)}`;
  if (inside) return `./${toPosix(dir)}/**`;
  return `/${toPosix(path.dirname(target))}/**`;
}

const toPosix = (text: string): string => text.split(path.sep).join("/");

function hostOf(url: string): string | undefined {
  try {
    const host = new URL(url).hostname;
    return host === "" ? undefined : host;
  } catch {
    return undefined;
  }
}
