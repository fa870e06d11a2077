import { existsSync } from "node:fs";
import { appendFile, readFile } from "node:fs/promises";
import { join } from "node:path";
import { failed } from "../command-outcome.js";
import type { CommandHandler } from "../run-context.js";

/** `/init [notes]`: asks the model to write AGENTS.md for this project, or to update the one there. */
export const runInitCommand: CommandHandler = async (run, args, signal) => {
  const path = join(run.projectRoot, "AGENTS.md");
  const before = await readFile(path, "utf8").catch(() => undefined);
  const result = await run.agent.prompt(
    initPrompt(path, before !== undefined, args),
    signal === undefined ? {} : { signal },
  );
  if (!result.ok) {
    const status = result.error.code === "aborted" ? "interrupted" : "failure";
    return failed(status, result.error.code, `/init: ${result.error.message}`);
  }
  const after = await readFile(path, "utf8").catch(() => undefined);
  const ignored = await ignoreLocalConfig(run.projectRoot);
  return {
    type: "agents-file",
    path,
    existed: before !== undefined,
    changed: after !== undefined && after !== before,
    ...(ignored === undefined ? {} : { ignored }),
  };
};

const LOCAL_CONFIG = ".panto/config.local.json";

/**
 * In a git project, adds `.panto/config.local.json` (the user's own settings and permission
 * rules for the project) to the root .gitignore unless a line there already names it; returns the
 * .gitignore's path when it added the line.
 */
async function ignoreLocalConfig(projectRoot: string): Promise<string | undefined> {
  if (!existsSync(join(projectRoot, ".git"))) return undefined;
  const file = join(projectRoot, ".gitignore");
  const text = await readFile(file, "utf8").catch(() => "");
  const lines = text.split(/\r?\n/).map((line) => line.trim());
  if (lines.includes(LOCAL_CONFIG) || lines.includes(`/${LOCAL_CONFIG}`)) return undefined;
  const separator = text === "" || text.endsWith("\n") ? "" : "\n";
  await appendFile(file, `${separator}${LOCAL_CONFIG}\n`);
  return file;
}

function initPrompt(path: string, exists: boolean, notes: string): string {
  const task = exists
    ? `Update the AGENTS.md at ${path}: read it, keep what is still true, correct what is not, and add what is missing.`
    : `Write an AGENTS.md at ${path}.`;
  return [
    task,
    "AGENTS.md tells coding agents how to work in this project. First look at the project (ls, glob, read the README, the package manifest, the build and test configuration, CI files, a few source files), then write it with the write tool.",
    "Cover, briefly and only with facts you found: what the project is; how to install, build, run, lint and test (exact commands, including how to run a single test); the layout of the code; conventions to follow (style, naming, error handling, tests); and anything an agent must not do.",
    "Keep it short (well under 200 lines), in Markdown, without guesses or generic advice.",
    ...(notes === "" ? [] : [`The user adds: ${notes}`]),
  ].join("\n\n");
}
