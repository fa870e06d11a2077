import { renameSync, symlinkSync } from "node:fs";
import { pathState } from "./path-state.js";
import type { WatchedPath } from "./sandbox-layout.js";

/**
 * After a sandboxed command (its whole process tree is gone by then), puts back every watched path
 * it changed: what it created where nothing was is moved aside, and a replaced symlink is made
 * again. Returns one line per path put back, for the model and the user; empty when nothing changed.
 */
export function restoreWatched(watched: readonly WatchedPath[], now = new Date()): string[] {
  const notes: string[] = [];
  for (const entry of watched) {
    const state = pathState(entry.path);
    if (sameState(entry.before, state)) continue;
    notes.push(restoreOne(entry, state.kind !== "missing", now));
  }
  return notes;
}

function sameState(before: WatchedPath["before"], after: ReturnType<typeof pathState>): boolean {
  if (before.kind === "missing") return after.kind === "missing";
  return after.kind === "symlink" && after.target === before.target;
}

function restoreOne(entry: WatchedPath, exists: boolean, now: Date): string {
  const aside = `${entry.path}.sandbox-refused-${now.toISOString().replace(/[:.]/g, "-")}`;
  try {
    if (exists) renameSync(entry.path, aside);
    if (entry.before.kind === "symlink") symlinkSync(entry.before.target, entry.path);
    const restored = entry.before.kind === "symlink" ? `; the symlink to ${entry.before.target} is back` : "";
    const moved = exists ? `what the command made there is moved to ${aside}` : "it was removed";
    return `${entry.path} is ${entry.reason} and may not be changed: ${moved}${restored}`;
  } catch (error) {
    return `${entry.path} is ${entry.reason} and was changed by the command; putting it back failed: ${
      error instanceof Error ? error.message : String(error)
    }`;
  }
}
