import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import path from "node:path";

/** A cgroup every sandboxed command of a run joins, holding them to a number of processes. */
export interface PidsCgroup {
  /**
   * Writing 0 here moves the writer (and what it starts later) into the cgroup: cgroup v1's `tasks`
   * (one thread, the writer, single-threaded shell that it is), v2's `cgroup.procs`. Not v1's
   * `cgroup.procs`: moving a whole process there waits for an RCU grace period under a global
   * lock, 8-12 ms a command measured under load, where moving the writing thread waits for none.
   */
  joinFile: string;
  /** Removes the cgroup once empty; false while processes are still leaving it. */
  remove(): boolean;
}

const CGROUP_ROOT = "/sys/fs/cgroup";

/**
 * A child of panto's own pids cgroup with `pids.max` set, when panto may make one: cgroup v1's
 * pids hierarchy as root, or a cgroup v2 whose pids controller is delegated to panto. Needed where
 * RLIMIT_NPROC does nothing: the kernel never applies it to root's processes (uid 0), even in a
 * user namespace. Undefined when no such cgroup can be made (then RLIMIT_NPROC alone bounds).
 */
export function createPidsCgroup(maxProcesses: number, name: string): PidsCgroup | undefined {
  for (const { parent, joinName } of candidateParents()) {
    const folder = path.join(parent, name);
    try {
      mkdirSync(folder);
    } catch {
      continue;
    }
    try {
      writeFileSync(path.join(folder, "pids.max"), String(maxProcesses));
      return { joinFile: path.join(folder, joinName), remove: () => removeFolder(folder) };
    } catch {
      removeFolder(folder);
    }
  }
  return undefined;
}

/** Panto's own cgroup in the v1 pids hierarchy and in the v2 one, from /proc/self/cgroup. */
function candidateParents(): { parent: string; joinName: string }[] {
  let text: string;
  try {
    text = readFileSync("/proc/self/cgroup", "utf8");
  } catch {
    return [];
  }
  const parents: { parent: string; joinName: string }[] = [];
  for (const line of text.split("\n")) {
    const [, controllers, where] = line.match(/^\d+:([^:]*):(\/.*)$/) ?? [];
    if (controllers === undefined || where === undefined) continue;
    if (controllers.split(",").includes("pids")) {
      parents.push({ parent: path.join(CGROUP_ROOT, "pids", where), joinName: "tasks" });
    }
    if (controllers === "" && existsSync(path.join(CGROUP_ROOT, "cgroup.controllers"))) {
      parents.push({ parent: path.join(CGROUP_ROOT, where), joinName: "cgroup.procs" });
    }
  }
  return parents;
}

function removeFolder(folder: string): boolean {
  try {
    rmdirSync(folder);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT";
  }
}
