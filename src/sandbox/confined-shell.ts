import type { CommandLimits } from "./sandbox-policy.js";

/**
 * The argv running `command` with /bin/bash -c under the limits, set by the same bash on the
 * command's own line (no second bash to exec: 4-5 ms a command, measured), so `$0`, line numbers
 * and error messages are the command's as without the limits. `ulimit -u` is RLIMIT_NPROC: inside
 * the sandbox's own user namespace (Linux 5.14 and later) it counts only the sandbox's processes
 * and threads, and a fork past it fails with EAGAIN ("Resource temporarily unavailable"); the
 * kernel ignores it for root, whom the pids cgroup holds instead (createPidsCgroup). `ulimit -d` is
 * RLIMIT_DATA: the private writable memory one process may map (its heap and anonymous maps), so
 * an allocation past it fails with ENOMEM. Both set the hard limit too, so the command cannot raise
 * them again. RLIMIT_AS was measured and rejected: it counts address space reserved and never
 * used, and WebAssembly reserves about 10 GB per memory, so any limit below that breaks wasm tools.
 * A limit the user's own hard limit is already below stays as it was (ulimit fails quietly).
 */
export function confinedShell(command: string, limits: CommandLimits): string[] {
  const prefix = `ulimit -u ${limits.maxProcesses} 2>/dev/null; ulimit -d ${limits.maxMemoryMb * 1024} 2>/dev/null; `;
  return ["/bin/bash", "-c", `${prefix}${command}`];
}

/**
 * The argv starting `argv` inside a cgroup: a shell moves itself there by writing 0 (the writer)
 * to `joinFile`, so nothing the command starts runs outside it, then becomes `argv`. When the
 * write fails, the command runs with the rlimits alone.
 */
export function inCgroup(joinFile: string, argv: readonly string[]): string[] {
  return ["/bin/sh", "-c", '{ echo 0 > "$0"; } 2>/dev/null; exec "$@"', joinFile, ...argv];
}
