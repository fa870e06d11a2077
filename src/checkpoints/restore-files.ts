import { randomBytes } from "node:crypto";
import { chmod, lstat, rename, rm, rmdir, symlink, unlink, writeFile } from "node:fs/promises";
import { dirname, relative, sep } from "node:path";
import { makeFolder } from "../core/index.js";
import type { FileVersion, RewindFileOutcome } from "../session/index.js";
import { blobOid, readLooseBlob, writeLooseBlob } from "./loose-object.js";
import type { PlannedFile } from "./plan-code-rewind.js";
import { pathState, permOf, readContent } from "./read-workspace-file.js";

/** A file as found before restoring: its recorded form, or a folder or special file (never matching one). */
type Found = { kind: "version"; version: FileVersion | null } | { kind: "other"; what: string };

/** What would happen to one planned file (a dry run stops here). */
export interface FileVerdict {
  file: PlannedFile;
  found: Found;
  /** "restore": put back; "unchanged": already so; "conflict": changed since panto recorded it; "unavailable": content gone. */
  action: "restore" | "unchanged" | "conflict" | "unavailable";
}

/** One change a restore made: the file, as found and as written. */
export interface RestoredChange {
  file: PlannedFile;
  before: FileVersion | null;
  after: FileVersion | null;
}

/** What a restore did: each file's outcome, and the changes it made (a checkpoint of its own). */
export interface RestoreResult {
  outcomes: RewindFileOutcome[];
  changes: RestoredChange[];
}

function same(a: FileVersion | null, b: FileVersion | null): boolean {
  if (a === null || b === null) return a === b;
  return a.oid === b.oid && a.mode === b.mode;
}

/**
 * Reads what is at a planned file's path now; with `store`, keeps its content in the store so a
 * later rewind can put it back (a dry run stores nothing).
 */
async function findFile(objectsDir: string, absolute: string, store: boolean): Promise<Found> {
  const state = await pathState(absolute);
  if (state.kind === "absent") return { kind: "version", version: null };
  if (state.kind !== "file")
    return { kind: "other", what: state.kind === "directory" ? "a folder" : "a special file" };
  const content = await readContent(absolute, state.mode);
  const oid = store ? await writeLooseBlob(objectsDir, content) : blobOid(content);
  return { kind: "version", version: { oid, mode: state.mode, size: content.length, ...permOf(state) } };
}

/** Where the objects of the store of the workspace at `root` are. */
export type ObjectsDirFor = (root: string) => string;

/** Judges every planned file against what is there now. Changes nothing in the workspace. */
export async function judgeFiles(
  objectsDirFor: ObjectsDirFor,
  files: readonly PlannedFile[],
  store: boolean,
): Promise<FileVerdict[]> {
  const verdicts: FileVerdict[] = [];
  for (const file of files) {
    const objectsDir = objectsDirFor(file.root);
    const found = await findFile(objectsDir, file.absolute, store);
    const now = found.kind === "version" ? found.version : undefined;
    let action: FileVerdict["action"];
    if (now !== undefined && same(now, file.desired)) action = "unchanged";
    else if (now === undefined || !same(now, file.expected)) action = "conflict";
    else if (file.desired !== null && (await readLooseBlob(objectsDir, file.desired.oid)) === undefined)
      action = "unavailable";
    else action = "restore";
    verdicts.push({ file, found, action });
  }
  return verdicts;
}

/** Removes the folders a removal emptied, up to (not including) the workspace root. */
async function removeEmptiedFolders(root: string, absolute: string): Promise<void> {
  for (let folder = dirname(absolute); ; folder = dirname(folder)) {
    const inside = relative(root, folder);
    if (inside === "" || inside.startsWith("..") || inside.startsWith(sep)) return;
    try {
      await rmdir(folder);
    } catch {
      return;
    }
  }
}

/**
 * Writes `version` at `absolute`, atomically (a temporary file renamed over it), with the permission
 * bits recorded with it. Without recorded bits, an existing regular file keeps its own, with the
 * executable bits set or cleared as recorded; a new one gets the usual permissions under the umask.
 */
async function writeVersion(objectsDir: string, absolute: string, version: FileVersion): Promise<void> {
  const content = await readLooseBlob(objectsDir, version.oid);
  if (content === undefined || blobOid(content) !== version.oid)
    throw new Error("its recorded content is no longer in the store");
  await makeFolder(dirname(absolute));
  const temporary = `${absolute}.panto-${randomBytes(4).toString("hex")}`;
  try {
    if (version.mode === "120000") await symlink(content.toString("utf8"), temporary);
    else {
      const previous = await lstat(absolute).catch(() => undefined);
      await writeFile(temporary, content, { mode: version.mode === "100755" ? 0o777 : 0o666 });
      if (version.perm !== undefined) await chmod(temporary, version.perm);
      else if (previous?.isFile() === true) {
        const readable = previous.mode & 0o444;
        const bits =
          version.mode === "100755" ? (previous.mode & 0o666) | (readable >> 2) : previous.mode & 0o666;
        await chmod(temporary, bits);
      }
    }
    await rename(temporary, absolute);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

async function restoreOne(objectsDir: string, verdict: FileVerdict): Promise<void> {
  const { file } = verdict;
  if (file.desired === null) {
    await unlink(file.absolute);
    await removeEmptiedFolders(file.root, file.absolute);
  } else await writeVersion(objectsDir, file.absolute, file.desired);
}

function outcomeOf(verdict: FileVerdict, force: boolean): RewindFileOutcome {
  const { path } = verdict.file;
  switch (verdict.action) {
    case "unchanged":
      return { path, outcome: "unchanged" };
    case "unavailable":
      return { path, outcome: "failed", reason: "its earlier content is no longer in the checkpoint store" };
    case "conflict":
      if (force && verdict.found.kind === "version") return { path, outcome: "overwritten" };
      return {
        path,
        outcome: "conflict",
        reason:
          verdict.found.kind === "other"
            ? `it is ${verdict.found.what} now`
            : "it changed since panto last recorded it (by you or another program)",
      };
    default:
      return { path, outcome: "restored" };
  }
}

/**
 * Applies judged files: restores those marked "restore" (and, with `force`, conflicting files that
 * are files), leaves the rest alone. A failure is that file's outcome; the others go on. The
 * changes made are returned as a checkpoint would record them, so a later rewind can undo them.
 */
export async function restoreFiles(
  objectsDirFor: ObjectsDirFor,
  verdicts: readonly FileVerdict[],
  force: boolean,
): Promise<RestoreResult> {
  const result: RestoreResult = { outcomes: [], changes: [] };
  for (const verdict of verdicts) {
    const outcome = outcomeOf(verdict, force);
    if (outcome.outcome === "restored" || outcome.outcome === "overwritten") {
      try {
        await restoreOne(objectsDirFor(verdict.file.root), verdict);
        const before = verdict.found.kind === "version" ? verdict.found.version : null;
        result.changes.push({ file: verdict.file, before, after: verdict.file.desired });
      } catch (error) {
        const detail = error instanceof Error ? error.message : String(error);
        result.outcomes.push({ path: verdict.file.path, outcome: "failed", reason: detail });
        continue;
      }
    }
    result.outcomes.push(outcome);
  }
  return result;
}
