import { join } from "node:path";

/**
 * `$PANTO_HOME/checkpoints`. A file of its own so that the run's folder check, which runs on every
 * start, names the folder without loading the checkpoint store (git, zlib) it only needs later.
 */
export function checkpointsHome(pantoHome: string): string {
  return join(pantoHome, "checkpoints");
}
