import type { SandboxPolicy } from "../sandbox/index.js";

/** What the model is told about the sandbox in the bash tool's description. */
export function describeSandboxForCommands(policy: SandboxPolicy): string {
  const writable = [...policy.writableRoots, `the private temporary folder ${policy.tmp.view}`].join(", ");
  return (
    `Commands run in a sandbox (mode ${policy.mode}): they may write only in ${writable}; .git/config, ` +
    ".git/hooks, .panto/ and .mcp.json stay read-only; credential folders (~/.ssh, ~/.aws and the like) are " +
    `hidden; the network is ${policy.network ? "on" : "off"}. When a command cannot work that way, set ` +
    "unsandboxed_reason: the user is asked whether it may run outside the sandbox."
  );
}

const READ_ONLY = /read-only file system|EROFS/i;
const NO_NETWORK =
  /could not resolve host|temporary failure in name resolution|network is unreachable|ENETUNREACH|EAI_AGAIN|getaddrinfo|name or service not known/i;

/**
 * A line naming the sandbox rule behind a failed command's error, when its output shows one: the
 * model should not mistake the sandbox for a broken machine and retry in circles.
 */
export function sandboxFailureHint(output: string, policy: SandboxPolicy): string | undefined {
  if (READ_ONLY.test(output)) {
    return (
      'Note: "Read-only file system" comes from the sandbox (rule outside-writable-roots, or protected-path ' +
      `for .git/config, .git/hooks, .panto/, .mcp.json): in mode ${policy.mode} commands may write only in ` +
      `${[...policy.writableRoots, policy.tmp.view].join(", ")}. If the task needs more, ask with unsandboxed_reason.`
    );
  }
  if (!policy.network && NO_NETWORK.test(output)) {
    return "Note: the sandbox has the network off (rule network-off). If the task needs the network, ask with unsandboxed_reason.";
  }
  return undefined;
}
