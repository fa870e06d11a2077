import { open, readdir } from "node:fs/promises";
import { join } from "node:path";
import { readSessionHeader } from "./read-session-header.js";
import type { SessionRelation } from "./session-entries.js";

/**
 * The session files in `directory` whose header names `parentId` as their parent with `relation`
 * (a subagent's sessions: relation "task"), sorted by file name (so by start time). Files that are
 * not sessions, or cannot be read, are passed over: this only gathers what is there.
 */
export async function findChildSessions(
  directory: string,
  parentId: string,
  relation: SessionRelation,
): Promise<string[]> {
  let names: string[];
  try {
    names = (await readdir(directory)).filter((name) => name.endsWith(".jsonl")).sort();
  } catch {
    return [];
  }
  const children: string[] = [];
  for (const name of names) {
    const path = join(directory, name);
    let file: Awaited<ReturnType<typeof open>> | undefined;
    try {
      file = await open(path, "r");
      const { size } = await file.stat();
      const { header } = await readSessionHeader(path, file, size);
      if (header.parent?.id === parentId && header.parent.relation === relation) children.push(path);
    } catch {
      // Not a session file, or gone: not a child.
    } finally {
      await file?.close();
    }
  }
  return children;
}
