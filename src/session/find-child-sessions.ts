import { open, readdir } from "node:fs/promises";
import { join } from "node:path";
import { readSessionHeader } from "./read-session-header.js";
import type { SessionRelation } from "./session-entries.js";

/** How long before its parent a child's file name may say it started (a clock set back a little). */
const CLOCK_MARGIN_MS = 60 * 60 * 1000;

/**
 * The session files in `directory` whose header names `parentId` as their parent with `relation`
 * (a subagent's sessions: relation "task"), sorted by file name (so by start time). Files that are
 * not sessions, or cannot be read, are passed over: this only gathers what is there.
 *
 * With `parentCreated` (the parent header's ISO time), files whose name says they started more
 * than an hour before the parent are not opened: a child starts after its parent, and a project
 * with a thousand sessions would otherwise cost a thousand header reads (about 130 ms) each time.
 */
export async function findChildSessions(
  directory: string,
  parentId: string,
  relation: SessionRelation,
  parentCreated?: string,
): Promise<string[]> {
  let names: string[];
  try {
    names = (await readdir(directory)).filter((name) => name.endsWith(".jsonl")).sort();
  } catch {
    return [];
  }
  const earliest = earliestChildName(parentCreated);
  if (earliest !== undefined) names = names.filter((name) => !NAME_TIME.test(name) || name >= earliest);
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

/** A session file name's start time (`newSessionPath`: the ISO time with "-" for ":", then "_"). */
const NAME_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}(?:\.\d{3})?Z_/;

/** The smallest file name a child of a session created at `created` can have, or undefined. */
function earliestChildName(created: string | undefined): string | undefined {
  if (created === undefined) return undefined;
  const time = Date.parse(created);
  if (Number.isNaN(time)) return undefined;
  return new Date(time - CLOCK_MARGIN_MS).toISOString().replace(/:/g, "-");
}
