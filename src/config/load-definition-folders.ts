import { readdir } from "node:fs/promises";
import { join } from "node:path";

/** A file or folder that could not be used, and why (the message names it). */
export interface DefinitionProblem {
  path: string;
  message: string;
}

/** What each folder holds: `*.md` files directly in it (commands, agents) or subfolders (skills). */
export type DefinitionEntries = "markdown-files" | "subfolders";

export interface DefinitionFolderOptions<T, P> {
  entries: DefinitionEntries;
  /** What one entry defines, for the message when a folder cannot be listed ("command"). */
  noun: string;
  /** Reads one entry: its definition, its problem, or undefined when the entry defines nothing. */
  read: (entryPath: string, folderIndex: number) => Promise<T | P | undefined>;
  isProblem: (read: T | P) => read is P;
  /** The problem for a folder that exists but cannot be listed. */
  listingProblem: (problem: DefinitionProblem) => P;
}

/**
 * Reads definitions (custom commands, skills, agents) from `folders` in priority order: the first
 * folder defining a name wins, so a project's definition overrides the user's. Entries are read in
 * name order; a broken entry is a problem naming it and the others still load; a folder that does
 * not exist defines nothing, one that cannot be listed is a problem. Definitions come back sorted
 * by name (code-unit order, the same on every machine), so lists built from them never reorder.
 */
export async function loadDefinitionFolders<T extends { name: string }, P>(
  folders: readonly string[],
  options: DefinitionFolderOptions<T, P>,
): Promise<{ definitions: T[]; problems: P[] }> {
  const byName = new Map<string, T>();
  const problems: P[] = [];
  for (const [index, folder] of folders.entries()) {
    const listed = await listEntries(folder, options.entries);
    if (!Array.isArray(listed)) {
      problems.push(
        options.listingProblem({
          path: folder,
          message: `${folder}: cannot be listed (${listed.reason}); no ${options.noun} in it is loaded`,
        }),
      );
      continue;
    }
    for (const path of listed) {
      const read = await options.read(path, index);
      if (read === undefined) continue;
      if (options.isProblem(read)) problems.push(read);
      else if (!byName.has(read.name)) byName.set(read.name, read);
    }
  }
  const definitions = [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { definitions, problems };
}

async function listEntries(
  folder: string,
  entries: DefinitionEntries,
): Promise<string[] | { reason: string }> {
  try {
    const found = await readdir(folder, { withFileTypes: true });
    return found
      .filter((entry) =>
        entries === "subfolders"
          ? entry.isDirectory() || entry.isSymbolicLink()
          : entry.name.toLowerCase().endsWith(".md"),
      )
      .map((entry) => entry.name)
      .sort()
      .map((name) => join(folder, name));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return [];
    return { reason: describeFileError(error) };
  }
}

/** A file system error in a few words: its code ("EACCES"), "it is a folder", or its message. */
export function describeFileError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "EISDIR") return "it is a folder";
  return code ?? (error instanceof Error ? error.message : String(error));
}
