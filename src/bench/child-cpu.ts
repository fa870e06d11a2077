import { readFileSync } from "node:fs";

/**
 * CPU time (ms) of this process's children that have ended, from /proc (Linux): what the git
 * commands panto runs cost. Undefined where /proc is not there. Resolution: the kernel's tick (10 ms).
 */
export function childCpuMs(): number | undefined {
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // Fields 16 and 17 of stat(5), cutime and cstime, in clock ticks (100 a second on Linux).
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return undefined;
  }
}
