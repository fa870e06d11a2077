import { lstat } from "node:fs/promises";
import { join } from "node:path";
import type { FileChange, UncoveredPath } from "../session/index.js";
import type { CheckpointStore } from "./checkpoint-store.js";
import { hasLooseObject, readLooseBlob } from "./loose-object.js";
import { copyFromProject } from "./project-objects.js";
import type { WorkspaceChanges } from "./workspace-index.js";

/**
 * Allowance for file times against the clock: some file systems stamp times from a coarse clock
 * that may lag the one `Date.now()` reads by a few milliseconds.
 */
const CLOCK_SLACK_MS = 50;

/**
 * Makes every change's earlier content the store's own: copied from the project's repository when
 * only it holds the content (the first refresh records without copying), its size read when not
 * known. A change whose earlier content is nowhere any more stays, and its path is reported.
 */
export async function completeBefores(
  store: CheckpointStore,
  changes: readonly FileChange[],
): Promise<{ changes: FileChange[]; uncovered: UncoveredPath[] }> {
  const missing: string[] = [];
  for (const change of changes) {
    if (change.before !== null && !(await hasLooseObject(store.objectsDir, change.before.oid)))
      missing.push(change.before.oid);
  }
  const copied = await copyFromProject(store, missing);
  const uncovered: UncoveredPath[] = [];
  const settled: FileChange[] = [];
  for (const change of changes) {
    const before = change.before;
    if (before !== null && missing.includes(before.oid) && !copied.has(before.oid))
      uncovered.push({ path: change.path, reason: "content-unavailable" });
    else if (before !== null && before.size < 0) {
      const content = await readLooseBlob(store.objectsDir, before.oid);
      settled.push({ ...change, before: { ...before, size: content?.length ?? 0 } });
      continue;
    }
    settled.push(change);
  }
  return { changes: settled, uncovered };
}

async function modifiedSince(absolute: string, started: number): Promise<boolean> {
  const info = await lstat(absolute).catch(() => undefined);
  return info !== undefined && info.mtimeMs >= started - CLOCK_SLACK_MS;
}

/**
 * What a command may have changed that the snapshot could not cover: files over the size cap,
 * special files, and ignored files and folders, whose modification time is after the command
 * started. A change deep inside an ignored folder that leaves the folder's own time alone is not seen.
 */
export async function recentlyChanged(
  root: string,
  refreshed: Pick<WorkspaceChanges, "uncovered" | "ignored">,
  started: number,
): Promise<UncoveredPath[]> {
  const candidates: UncoveredPath[] = [
    ...refreshed.uncovered.filter((item) => item.reason !== "nested-repository"),
    ...refreshed.ignored.map((path): UncoveredPath => ({ path, reason: "ignored" })),
  ];
  const found: UncoveredPath[] = [];
  for (const item of candidates) {
    if (await modifiedSince(join(root, item.path), started)) found.push(item);
  }
  return found;
}
