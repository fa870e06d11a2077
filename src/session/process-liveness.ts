import { readFile } from "node:fs/promises";

/** Linux reports process start times in USER_HZ, which is 100 on every mainstream architecture. */
const USER_HZ = 100;

/** Whether a process with this pid exists on this machine (a zombie counts as gone). */
export async function isProcessAlive(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
  return (await linuxProcessState(pid)) !== "Z";
}

async function linuxProcessStat(pid: number): Promise<string[] | undefined> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) may contain spaces and parentheses; the fields after it may not.
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return undefined;
  }
}

async function linuxProcessState(pid: number): Promise<string | undefined> {
  return (await linuxProcessStat(pid))?.[0];
}

async function linuxBootTimeMs(): Promise<number | undefined> {
  try {
    const match = /^btime (\d+)$/m.exec(await readFile("/proc/stat", "utf8"));
    return match?.[1] === undefined ? undefined : Number(match[1]) * 1000;
  } catch {
    return undefined;
  }
}

/**
 * When the process with this pid started (ms since the epoch), where the system says (Linux /proc);
 * undefined elsewhere. Lets a lock tell its holder apart from a later process that reused the pid.
 */
export async function processStartTimeMs(pid: number): Promise<number | undefined> {
  const fields = await linuxProcessStat(pid);
  // Field 22 of /proc/<pid>/stat (starttime, clock ticks after boot); the slice begins at field 3.
  const ticks = Number(fields?.[19]);
  const bootMs = await linuxBootTimeMs();
  if (!Number.isFinite(ticks) || bootMs === undefined) return undefined;
  return bootMs + (ticks / USER_HZ) * 1000;
}
