import { open } from "node:fs/promises";
import { type SessionHeader, validateHeader } from "../session/index.js";

/** A session file recall searches: the current one, or one it was started from. */
export interface RecallSource {
  path: string;
  /** The session's header id. */
  id: string;
  /** What the session before it in the lineage is to this one ("handoff", "fork", "task"); absent for the current session. */
  relation?: string;
  /** Only turns up to this one count (a fork's point in its parent). */
  throughTurn?: number;
}

/** The lineage recall searches, and why any of it could not be reached. */
export interface RecallLineage {
  sources: RecallSource[];
  problems: string[];
}

/** How far back the lineage is followed. */
export const MAX_LINEAGE = 5;
const HEADER_BYTES = 64 * 1024;

/**
 * The current session and the sessions it was started from, nearest first, each read from its
 * header's `parent` (the id must match the file found at its path; a loop ends the walk). A parent
 * that is missing or not the session named is reported, and the walk stops there.
 */
export async function recallLineage(path: string, header: SessionHeader): Promise<RecallLineage> {
  const sources: RecallSource[] = [{ path, id: header.id }];
  const problems: string[] = [];
  let child = header;
  while (child.parent !== undefined && sources.length < MAX_LINEAGE) {
    const parent = child.parent;
    // An imported session's parent is another agent's file: its turns are in this session already.
    if (parent.relation === "import") break;
    if (sources.some((source) => source.id === parent.id)) break;
    let found: SessionHeader;
    try {
      found = await readHeader(parent.path);
    } catch (error) {
      problems.push(
        `the ${parent.relation} parent session ${parent.id} could not be read at ${parent.path}: ${(error as Error).message}`,
      );
      break;
    }
    if (found.id !== parent.id) {
      problems.push(`${parent.path} holds session ${found.id}, not the parent session ${parent.id}`);
      break;
    }
    sources.push({
      path: parent.path,
      id: parent.id,
      relation: parent.relation,
      ...(parent.turn === undefined ? {} : { throughTurn: parent.turn }),
    });
    child = found;
  }
  return { sources, problems };
}

async function readHeader(path: string): Promise<SessionHeader> {
  const file = await open(path, "r");
  try {
    const buffer = Buffer.alloc(HEADER_BYTES);
    const { bytesRead } = await file.read(buffer, 0, HEADER_BYTES, 0);
    const line = buffer.toString("utf8", 0, bytesRead).split("\n")[0] ?? "";
    return validateHeader(path, JSON.parse(line.replace(/^\uFEFF/, "")));
  } finally {
    await file.close();
  }
}
