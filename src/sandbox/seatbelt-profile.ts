import { SandboxError } from "./sandbox-error.js";
import type { PathRule, SandboxLayout } from "./sandbox-layout.js";

/**
 * What any program needs besides files and the network: running programs, signals within the
 * sandbox, system information, Mach services (name lookups, logging), shared memory, terminals.
 */
const BASE = [
  "(version 1)",
  "(deny default)",
  "(allow process-exec process-fork)",
  "(allow signal (target same-sandbox))",
  "(allow process-info* (target same-sandbox))",
  "(allow sysctl-read)",
  "(allow mach-lookup)",
  "(allow ipc-posix-shm ipc-posix-sem)",
  "(allow pseudo-tty)",
  "(allow file-ioctl)",
  "(allow user-preference-read)",
  "(allow iokit-get-properties)",
];

/** Devices every program writes to; last, so no path rule above takes them away. */
const DEVICES = [
  '(allow file-read* file-write-data file-ioctl (literal "/dev/null") (literal "/dev/zero") (literal "/dev/tty") (literal "/dev/dtracehelper") (literal "/dev/stdout") (literal "/dev/stderr") (regex #"^/dev/fd/[0-9]+$") (regex #"^/dev/ttys[0-9]+$"))',
];

/**
 * The Seatbelt profile (SBPL) for `sandbox-exec -p`, from the same layout bubblewrap mounts: its
 * rules in the same order, since in SBPL the last matching rule wins, as the deepest rule does.
 * Paths match by name, so a missing protected path cannot be created either. With the network off,
 * Unix sockets are allowed only inside the writable folders; with it on, everywhere but in the
 * concealed and hidden paths.
 */
export function seatbeltProfile(layout: SandboxLayout): string {
  const lines = [...BASE, layout.policy.network ? "(allow network*)" : "(deny network*)"];
  for (const rule of layout.rules) lines.push(...formsFor(rule, layout.policy.network));
  lines.push(...DEVICES);
  return `${lines.join("\n")}\n`;
}

function formsFor(rule: PathRule, network: boolean): string[] {
  const at = `(subpath ${sbplString(rule.path)})`;
  const sockets = `(remote unix-socket ${at})`;
  switch (rule.kind) {
    case "read-only":
      return [
        `(allow file-read* ${at})`,
        // Below "/" (deny default) already refuses writes; deeper, this takes back a writable parent's.
        ...(rule.path === "/" ? [] : [`(deny file-write* ${at})`]),
        ...(network ? [`(allow network-outbound ${sockets})`] : []),
      ];
    case "concealed":
    case "hidden":
      return [`(deny file-read* file-write* ${at})`, `(deny network-outbound ${sockets})`];
    case "private-tmp":
    case "writable":
      return [
        `(allow file-read* file-write* ${at})`,
        `(allow network-bind network-inbound (local unix-socket ${at}))`,
        `(allow network-outbound ${sockets})`,
      ];
    case "protected":
      return [`(deny file-write* ${at})`];
  }
}

/** A path as an SBPL string literal; control characters have no safe spelling there and are refused. */
export function sbplString(value: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: detecting them is the point.
  if (/[\u0000-\u001f\u007f]/.test(value)) {
    throw new SandboxError(`cannot express the path ${JSON.stringify(value)} in a Seatbelt profile`);
  }
  return `"${value.replace(/[\\"]/g, (character) => `\\${character}`)}"`;
}
