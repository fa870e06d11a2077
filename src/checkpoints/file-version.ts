import { realpath } from "node:fs/promises";
import { basename, dirname, isAbsolute, join, relative, sep } from "node:path";
import type { FileVersion, UncoveredReason } from "../session/index.js";
import { writeLooseBlob } from "./loose-object.js";
import { pathState, permOf, readContent } from "./read-workspace-file.js";

/** A file's state stored in the checkpoint store, or why it could not be. */
export type StoredState =
  | { kind: "version"; version: FileVersion | null }
  | { kind: "uncovered"; reason: UncoveredReason };

/**
 * Reads the file at `absolute` and stores its content (once per distinct content): null when there
 * is no file, "too-large" over the cap, "special-file" for a folder, pipe, socket or device.
 */
export async function storeFileState(
  objectsDir: string,
  absolute: string,
  maxFileBytes: number,
): Promise<StoredState> {
  const state = await pathState(absolute);
  if (state.kind === "absent") return { kind: "version", version: null };
  if (state.kind !== "file") return { kind: "uncovered", reason: "special-file" };
  if (state.size > maxFileBytes) return { kind: "uncovered", reason: "too-large" };
  const content = await readContent(absolute, state.mode);
  const oid = await writeLooseBlob(objectsDir, content);
  return { kind: "version", version: { oid, mode: state.mode, size: content.length, ...permOf(state) } };
}

/**
 * The file a write or edit changes: the one at `absolute` with symbolic links resolved (the tools
 * write through a link to its target), or, for a new file, its folder resolved.
 */
export async function resolveWrittenFile(absolute: string): Promise<string> {
  const resolved = await realpath(absolute).catch(() => undefined);
  if (resolved !== undefined) return resolved;
  const folder = await realpath(dirname(absolute)).catch(() => dirname(absolute));
  return join(folder, basename(absolute));
}

/** How a checkpoint names `absolute`: relative to `root` with "/" when inside it, else absolute. */
export function checkpointPath(root: string, absolute: string): string {
  const inside = relative(root, absolute);
  if (inside === "" || inside.startsWith("..") || isAbsolute(inside)) return absolute;
  return inside.split(sep).join("/");
}

/** The absolute path a checkpoint's path names. */
export function absoluteCheckpointPath(root: string, path: string): string {
  return isAbsolute(path) ? path : join(root, ...path.split("/"));
}

/** Whether two recorded states are the same file (content and mode; both absent counts). */
export function sameVersion(a: FileVersion | null, b: FileVersion | null): boolean {
  if (a === null || b === null) return a === b;
  return a.oid === b.oid && a.mode === b.mode;
}
