import { createHash, randomBytes } from "node:crypto";
import { readdir, stat, unlink } from "node:fs/promises";
import { hostname } from "node:os";
import { dirname, join } from "node:path";
import { isProcessAlive, processStartTimeMs } from "./process-liveness.js";

/** A process started this long after a draft was written cannot be the one that wrote it. */
const PID_REUSE_MARGIN_MS = 5_000;

/**
 * The temporary files around a lock: a "draft" holds a new lock's content before it is linked into
 * place, a "stale" file is an abandoned lock being moved aside. Both are named after the lock, the
 * host and the pid that made them, so whoever finds one can tell whether its maker is still alive.
 */
const DRAFT_NAME = /\.lock\.(?:draft|stale)-([0-9a-f]{8})-(\d+)-[0-9a-f]{8}$/;

function hostTag(): string {
  return createHash("sha256").update(hostname()).digest("hex").slice(0, 8);
}

/** A fresh name beside `lockPath` for one of this process's drafts (`kind` "draft" or "stale"). */
export function draftPath(lockPath: string, kind: "draft" | "stale"): string {
  return `${lockPath}.${kind}-${hostTag()}-${process.pid}-${randomBytes(4).toString("hex")}`;
}

/** Whether the process that made a draft at `madeMs` may still be running. */
async function makerMayBeAlive(pid: number, madeMs: number): Promise<boolean> {
  if (pid === process.pid) return true;
  if (!(await isProcessAlive(pid))) return false;
  const startedMs = await processStartTimeMs(pid);
  return startedMs === undefined || startedMs <= madeMs + PID_REUSE_MARGIN_MS;
}

async function removeIfAbandoned(path: string, pid: number): Promise<boolean> {
  const info = await stat(path).catch(() => undefined);
  if (info === undefined || (await makerMayBeAlive(pid, info.mtimeMs))) return false;
  return await unlink(path).then(
    () => true,
    () => false,
  );
}

/**
 * Removes the drafts in the lock's folder whose maker was killed before it could clean up (a
 * SIGKILL between writing a draft and unlinking it). Drafts of live processes and of other hosts
 * are left alone. Returns how many were removed.
 */
export async function removeAbandonedDrafts(lockPath: string): Promise<number> {
  const directory = dirname(lockPath);
  const names = await readdir(directory).catch(() => [] as string[]);
  const ours = hostTag();
  let removed = 0;
  for (const name of names) {
    const match = DRAFT_NAME.exec(name);
    if (match === null || match[1] !== ours) continue;
    if (await removeIfAbandoned(join(directory, name), Number(match[2]))) removed++;
  }
  return removed;
}
