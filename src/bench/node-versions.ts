import { existsSync, readdirSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

/** One Node.js the start-up benchmark runs panto with. */
export interface NodeBinary {
  /** e.g. "v22.23.5". */
  version: string;
  execPath: string;
  /** The Node running the benchmark (the machine's own). */
  current: boolean;
}

/**
 * Where `.ci/run` installs the official Node builds it tests with (the npm registry's
 * `node-linux-<arch>` packages): `$PANTO_NODE_CACHE`, default `~/.cache/panto-node`, one folder
 * per version.
 */
export function nodeCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.PANTO_NODE_CACHE ?? join(homedir(), ".cache", "panto-node");
}

/**
 * The Node running this process, then every version installed in the cache folder, oldest first
 * (a version equal to the running one is listed once).
 */
export function nodeBinaries(env: NodeJS.ProcessEnv = process.env): NodeBinary[] {
  const found: NodeBinary[] = [{ version: process.version, execPath: process.execPath, current: true }];
  const cache = nodeCacheDir(env);
  const folders = existsSync(cache) ? readdirSync(cache) : [];
  for (const folder of folders.sort(byVersion)) {
    const execPath = join(cache, folder, "node_modules", `node-linux-${process.arch}`, "bin", "node");
    const version = `v${folder}`;
    if (existsSync(execPath) && version !== process.version)
      found.push({ version, execPath, current: false });
  }
  return found;
}

function byVersion(a: string, b: string): number {
  const parts = (text: string): number[] => text.split(".").map(Number);
  const [x, y] = [parts(a), parts(b)];
  for (let index = 0; index < Math.max(x.length, y.length); index++) {
    const difference = (x[index] ?? 0) - (y[index] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}
