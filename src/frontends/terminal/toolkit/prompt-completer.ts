import { readdir } from "node:fs/promises";
import { resolve } from "node:path";
import { modelCompletions } from "../../../runtime/commands/model-command.js";
import type { RunContext } from "../../../runtime/run-context.js";

type Completion = [string[], string];
type CompleterCallback = (error: Error | null, result: Completion) => void;

/** Paths offered for one Tab, at most. */
const MAX_PATH_HITS = 200;

/**
 * Tab completion for the interactive prompt (readline's callback form): slash command names,
 * "/model " with the models the provider lists and the configured ones, and "@" with file paths.
 */
export function createPromptCompleter(
  run: RunContext,
  cwd: string,
): (line: string, callback: CompleterCallback) => void {
  return (line, callback) => {
    completeLine(run, cwd, line).then(
      (result) => callback(null, result),
      () => callback(null, [[], line]),
    );
  };
}

async function completeLine(run: RunContext, cwd: string, line: string): Promise<Completion> {
  const model = /^\/model\s+(\S*)$/.exec(line);
  if (model !== null) {
    const prefix = model[1] ?? "";
    return [await modelCompletions(run, prefix), prefix];
  }
  const mention = /(?:^|\s)(@\S*)$/.exec(line)?.[1];
  if (mention !== undefined) return [await completePath(cwd, mention.slice(1)), mention];
  return run.commands.complete(line);
}

/** "@src/ma" -> "@src/math.ts", "@src/main/" (folders end in "/", hidden names only when asked for). */
async function completePath(cwd: string, typed: string): Promise<string[]> {
  const slash = typed.lastIndexOf("/");
  const folder = typed.slice(0, slash + 1);
  const start = typed.slice(slash + 1);
  const entries = await readdir(resolve(cwd, folder === "" ? "." : folder), { withFileTypes: true });
  return entries
    .filter((entry) => entry.name.startsWith(start) && (start.startsWith(".") || !entry.name.startsWith(".")))
    .map((entry) => `@${folder}${entry.name}${entry.isDirectory() ? "/" : ""}`)
    .sort()
    .slice(0, MAX_PATH_HITS);
}
