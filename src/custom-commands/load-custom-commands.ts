import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describeFileError, loadDefinitionFolders } from "../config/load-definition-folders.js";
import type { CommandFileProblem, CustomCommand, CustomCommandSource } from "./custom-command.js";
import { isCommandProblem, parseCommandFile } from "./parse-command-file.js";

/** A folder command files are read from. */
export interface CommandFolder {
  path: string;
  source: CustomCommandSource;
}

/** What was loaded: the commands by name, and every file that could not be (the others still load). */
export interface LoadedCommands {
  commands: CustomCommand[];
  problems: CommandFileProblem[];
}

/**
 * Where custom commands are read from, the first holding a name winning: the project's
 * `.panto/commands/`, the project's `.claude/commands/` (so Claude Code's commands work as they
 * are), then the user's `commands/` in the panto home folder (`$PANTO_HOME`, else `~/.panto`).
 */
export function commandFolders(paths: { projectRoot: string; pantoHome: string }): CommandFolder[] {
  return [
    { path: join(paths.projectRoot, ".panto", "commands"), source: "project" },
    { path: join(paths.projectRoot, ".claude", "commands"), source: "claude" },
    { path: join(paths.pantoHome, "commands"), source: "user" },
  ];
}

/**
 * Reads every `*.md` file directly in each folder (subfolders are not read). A name already taken
 * by an earlier folder is skipped: the project's command overrides the user's. A broken file is a
 * problem naming it, and the rest still load. Commands come back sorted by name.
 */
export async function loadCustomCommands(folders: readonly CommandFolder[]): Promise<LoadedCommands> {
  const { definitions, problems } = await loadDefinitionFolders<CustomCommand, CommandFileProblem>(
    folders.map((folder) => folder.path),
    {
      entries: "markdown-files",
      noun: "command",
      read: (path, index) => readCommand(path, (folders[index] as CommandFolder).source),
      isProblem: isCommandProblem,
      listingProblem: (problem) => problem,
    },
  );
  return { commands: definitions, problems };
}

async function readCommand(
  path: string,
  source: CustomCommandSource,
): Promise<CustomCommand | CommandFileProblem> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    return {
      path,
      message: `${path}: cannot be read (${describeFileError(error)}); the command is not loaded`,
    };
  }
  return parseCommandFile(text, { path, source });
}
