import { type ForkedSession, forkSession, newSessionPath } from "../../session/index.js";
import type { RunPlace } from "./run-place.js";

/**
 * A new session file in this project started from `parentPath` after turn `turn` (default: all of
 * it): the parent's entries copied, the checkpoint content they name listed as the fork's too (so
 * deleting the parent keeps it). The parent is only read.
 */
export async function makeFork(
  parentPath: string,
  turn: number | undefined,
  place: RunPlace,
): Promise<ForkedSession> {
  const fork = await forkSession({
    parentPath,
    ...(turn === undefined ? {} : { turn }),
    path: newSessionPath(place.pantoHome, place.projectRoot),
    cwd: place.cwd,
  });
  // The checkpoint store is loaded by a fork, not by every run that could fork.
  const { adoptObjects } = await import("../../checkpoints/release-session-objects.js");
  await adoptObjects(place.pantoHome, fork.header.id, fork.objects);
  return fork;
}

/** "Forked session 3f2a9c1b at turn 2 into 8c1d0e7a (PATH); the parent is unchanged." */
export function describeFork(fork: ForkedSession): string {
  const parent = fork.header.parent?.id.slice(0, 8) ?? "?";
  return `Forked session ${parent} at turn ${fork.turn} into ${fork.header.id.slice(0, 8)} (${fork.path}); the parent is unchanged (panto -r ${parent} goes back to it).`;
}
