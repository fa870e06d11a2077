import { createHash } from "node:crypto";
import { readdir, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import { newEntryId } from "./session-entries.js";
import { SESSION_INDEX_FILE } from "./session-index.js";

/** Readable part of a project's folder name; the hash after it keeps distinct projects apart. */
const SLUG_MAX_CHARS = 80;

/** A folder name for a project root: its path made filename-safe, plus a short hash of the full path. */
export function projectSlug(projectRoot: string): string {
  const absolute = resolve(projectRoot);
  const readable = absolute
    .replace(/[^A-Za-z0-9._-]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(-SLUG_MAX_CHARS);
  const hash = createHash("sha256").update(absolute).digest("hex").slice(0, 8);
  return readable === "" ? hash : `${readable}-${hash}`;
}

/** `$PANTO_HOME/sessions/<slug of project root>/` */
export function sessionDirectory(pantoHome: string, projectRoot: string): string {
  return join(pantoHome, "sessions", projectSlug(projectRoot));
}

/** A new path in that directory: `<ISO time with - instead of :>_<id>.jsonl` so names sort by time. */
export function newSessionPath(pantoHome: string, projectRoot: string): string {
  const time = new Date().toISOString().replace(/:/g, "-");
  return join(sessionDirectory(pantoHome, projectRoot), `${time}_${newEntryId()}.jsonl`);
}

/** The most recently modified session file in that directory, or undefined. */
export async function findLatestSession(pantoHome: string, projectRoot: string): Promise<string | undefined> {
  const directory = sessionDirectory(pantoHome, projectRoot);
  let names: string[];
  try {
    names = await readdir(directory);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  let latest: { path: string; mtimeMs: number } | undefined;
  for (const name of names
    .filter((candidate) => candidate.endsWith(".jsonl") && candidate !== SESSION_INDEX_FILE)
    .sort()) {
    const path = join(directory, name);
    const info = await stat(path).catch(() => undefined);
    // Ties go to the later name, which is the later-created session.
    if (info?.isFile() && (latest === undefined || info.mtimeMs >= latest.mtimeMs)) {
      latest = { path, mtimeMs: info.mtimeMs };
    }
  }
  return latest?.path;
}

/**
 * The folder beside a session file that holds its images, one file each, named by the sha256 of
 * the bytes: `work.jsonl` keeps them in `work.images/`. The session file names them and never
 * holds their bytes, so an image sent in every request of a long session is on disk once.
 */
export function imagesFolder(sessionPath: string): string {
  return `${withoutJsonl(sessionPath)}.images`;
}

/**
 * The folder beside a session file that keeps its background commands' output, one log each:
 * `work.jsonl` keeps them in `work.tasks/` (`bg1.log`, ...), so none of it is lost and recall reads it.
 */
export function tasksFolder(sessionPath: string): string {
  return `${withoutJsonl(sessionPath)}.tasks`;
}

function withoutJsonl(sessionPath: string): string {
  return sessionPath.endsWith(".jsonl") ? sessionPath.slice(0, -".jsonl".length) : sessionPath;
}
