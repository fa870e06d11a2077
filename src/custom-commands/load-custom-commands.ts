import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
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
  const byName = new Map<string, CustomCommand>();
  const problems: CommandFileProblem[] = [];
  for (const folder of folders) {
    const files = await markdownFiles(folder.path, problems);
    for (const path of files) {
      const read = await readCommand(path, folder.source);
      if (isCommandProblem(read)) problems.push(read);
      else if (!byName.has(read.name)) byName.set(read.name, read);
    }
  }
  const commands = [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
  return { commands, problems };
}

async function readCommand(
  path: string,
  source: CustomCommandSource,
): Promise<CustomCommand | CommandFileProblem> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    return { path, message: `${path}: cannot be read (${describe(error)}); the command is not loaded` };
  }
  return parseCommandFile(text, { path, source });
}

/** The folder's `*.md` entries, sorted; none when the folder does not exist. */
async function markdownFiles(folder: string, problems: CommandFileProblem[]): Promise<string[]> {
  try {
    const names = await readdir(folder);
    return names
      .filter((name) => name.toLowerCase().endsWith(".md"))
      .sort()
      .map((name) => join(folder, name));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ENOENT" && code !== "ENOTDIR")
      problems.push({
        path: folder,
        message: `${folder}: cannot be listed (${describe(error)}); no command in it is loaded`,
      });
    return [];
  }
}

function describe(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "EISDIR") return "it is a folder";
  return code ?? (error instanceof Error ? error.message : String(error));
}
