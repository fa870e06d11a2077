import type { SandboxPolicy } from "../sandbox/index.js";
import type { CommandResult } from "./run-process.js";

/** What the model is told about the sandbox in the bash tool's description. */
export function describeSandboxForCommands(policy: SandboxPolicy): string {
  const writable = [...policy.writableRoots, `the private temporary folder ${policy.tmp.view}`].join(", ");
  return (
    `Commands run in a sandbox (mode ${policy.mode}): they may write only in ${writable}; git's config, ` +
    "hooks (and the folder core.hooksPath names), commondir, modules and info/attributes (in any repository, at any depth), " +
    "a rebase's or cherry-pick's exec lines and merge strategies, .panto/ and .mcp.json " +
    "stay read-only; credential folders (~/.ssh, ~/.aws and the like) are " +
    `hidden; the network is ${policy.network ? "on" : "off"}; a command may run ${policy.limits.maxProcesses} ` +
    `processes at once, each using up to ${policy.limits.maxMemoryMb} MB. When a command cannot work that way, set ` +
    "unsandboxed_reason: the user is asked whether it may run outside the sandbox."
  );
}

const READ_ONLY = /read-only file system|EROFS/i;
const NO_NETWORK =
  /could not resolve host|temporary failure in name resolution|network is unreachable|ENETUNREACH|EAI_AGAIN|getaddrinfo|name or service not known/i;

/** What fork says when RLIMIT_NPROC or the pids cgroup refuses it (EAGAIN), in shells, Python, Node. */
const NO_PROCESS =
  /resource temporarily unavailable|fork: retry|cannot fork|can't fork|BlockingIOError|EAGAIN/i;
/** What an allocation past RLIMIT_DATA says (ENOMEM), in C tools, Python, Node, the JVM, C++. */
const NO_MEMORY =
  /cannot allocate memory|memory exhausted|out of memory|MemoryError|bad_alloc|ENOMEM|allocation failed|failed to allocate|Java heap space|unable to allocate/i;

/**
 * A line naming the sandbox rule behind a failed command's error, when its output shows one: the
 * model should not mistake the sandbox for a broken machine and retry in circles.
 */
export function sandboxFailureHint(result: CommandResult, policy: SandboxPolicy): string | undefined {
  const { output } = result;
  const { maxProcesses, maxMemoryMb } = policy.limits;
  if (NO_PROCESS.test(output)) {
    return (
      `Note: the sandbox lets a command run at most ${maxProcesses} processes and threads at once ` +
      '(config sandbox.max_processes); a fork past that fails with "Resource temporarily unavailable". ' +
      "Run fewer at once (e.g. a lower -j), or ask the user to raise sandbox.max_processes."
    );
  }
  if (NO_MEMORY.test(output) || killedByTheKernel(result)) {
    return (
      `Note: the sandbox lets each process of a command allocate at most ${maxMemoryMb} MB ` +
      "(config sandbox.max_memory_mb); past that an allocation fails. Use less memory, or ask the user to " +
      "raise sandbox.max_memory_mb."
    );
  }
  if (READ_ONLY.test(output)) {
    return (
      'Note: "Read-only file system" comes from the sandbox (rule outside-writable-roots, or protected-path ' +
      `for git's control files, .panto/, .mcp.json): in mode ${policy.mode} commands may write only in ` +
      `${[...policy.writableRoots, policy.tmp.view].join(", ")}. If the task needs more, ask with unsandboxed_reason.`
    );
  }
  if (!policy.network && NO_NETWORK.test(output)) {
    return "Note: the sandbox has the network off (rule network-off). If the task needs the network, ask with unsandboxed_reason.";
  }
  return undefined;
}

/** Killed by SIGKILL that panto did not send: bash reports it as 137 (128 + 9), bubblewrap passes it on. */
function killedByTheKernel(result: CommandResult): boolean {
  if (result.timedOut || result.aborted) return false;
  return result.signal === "SIGKILL" || result.exitCode === 137;
}
