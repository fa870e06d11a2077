import { realpathSync } from "node:fs";
import path from "node:path";
import { hiddenPathList } from "./credential-paths.js";
import { userGitConfigs } from "./git-hooks-path.js";
import { realpathOrUndefined } from "./path-state.js";
import { SandboxError } from "./sandbox-error.js";
import type { SandboxSettings } from "./sandbox-settings.js";

/** Where a sandbox is enforced: bubblewrap on Linux, Seatbelt on macOS. */
export type SandboxPlatform = "linux" | "darwin";

/** The confined modes; `full` has no policy. */
export type ConfinedMode = "read-only" | "workspace-write";

/**
 * The private temporary folder: `host` is where it is on this machine; `view` is where commands see
 * it (`/tmp` under bubblewrap, which hides the machine's /tmp; the host path under Seatbelt).
 */
export interface PrivateTmp {
  host: string;
  view: string;
}

/**
 * The one access policy of a run, built once from config, flags and the project root. Everything
 * that enforces it derives from it: the bubblewrap arguments, the Seatbelt profile and the checks
 * of the in-process tools (through `sandboxLayout`, which resolves it against the file system as it
 * is when a call starts).
 */
export interface SandboxPolicy {
  mode: ConfinedMode;
  network: boolean;
  /** Ask before sandboxed `bash` commands too (escapes always ask). */
  askCommands: boolean;
  platform: SandboxPlatform;
  /** The project root, symlinks resolved. */
  projectRoot: string;
  /** Folders commands may write besides the private temporary folder (workspace-write: the project root first); symlinks resolved. */
  writableRoots: string[];
  /** Credential files and folders, absolute and unresolved (a symlink is hidden along with its target). */
  hiddenPaths: string[];
  tmp: PrivateTmp;
  /** An empty file nobody may read, laid over hidden files (bubblewrap). */
  sealedFile: string;
  /** Folders replaced by empty ones: where the machine keeps sockets and temporary files (see concealedPathsFor). */
  concealedPaths: string[];
  /** Paths inside concealed folders kept as they are (see exposedPathsFor). */
  exposedPaths: string[];
  /** Bounds on one command (see confinedShell): processes and threads at once, memory per process. */
  limits: CommandLimits;
  /** The user's git config files (userGitConfigs) and home: where a hooks folder may be named (hooksPathsFor). */
  git: { userConfigs: string[]; home: string };
}

/** config sandbox.max_processes and sandbox.max_memory_mb. */
export interface CommandLimits {
  maxProcesses: number;
  maxMemoryMb: number;
}

export interface PolicyContext {
  projectRoot: string;
  home: string;
  /** `$PANTO_HOME` (default `~/.panto`): hidden like the credential folders. */
  pantoHome: string;
  tmp: PrivateTmp;
  sealedFile: string;
  platform: SandboxPlatform;
  /** The machine's temporary folder (os.tmpdir()), concealed along with the usual ones. */
  hostTmpDir: string;
  /** The user's git config files (default: userGitConfigs of no environment, under `home`). */
  gitConfigs?: string[];
}

/**
 * The policy for a confined mode. Configured paths may be absolute, `~/...` or relative to the
 * project root; a writable root that does not exist is an error naming it (a typo would otherwise
 * silently leave a folder read-only, or worse, writable under another name later).
 */
export function buildSandboxPolicy(
  settings: SandboxSettings & { mode: ConfinedMode },
  context: PolicyContext,
): SandboxPolicy {
  const projectRoot = realpathSync(context.projectRoot);
  const expand = (given: string) => expandPath(given, context.home, projectRoot);
  const extra = settings.writableRoots.map((given) => existingRealpath(given, expand(given)));
  const writableRoots = settings.mode === "workspace-write" ? [projectRoot, ...extra] : extra;
  return {
    mode: settings.mode,
    network: settings.network,
    askCommands: settings.askCommands,
    platform: context.platform,
    projectRoot,
    writableRoots: [...new Set(writableRoots)],
    hiddenPaths: hiddenPathList(context.home, context.pantoHome, settings.hiddenPaths.map(expand)),
    tmp: context.tmp,
    sealedFile: context.sealedFile,
    concealedPaths: concealedPathsFor(context.platform, context.hostTmpDir),
    exposedPaths: exposedPathsFor(context.platform),
    limits: { maxProcesses: settings.maxProcesses, maxMemoryMb: settings.maxMemoryMb },
    git: { userConfigs: context.gitConfigs ?? userGitConfigs({}, context.home), home: context.home },
  };
}

/**
 * Where Unix sockets and other users' temporary files live: connecting to a socket needs no write
 * access, so a read-only view of the Docker socket, an ssh-agent or a tmux server would still be an
 * open door. Under bubblewrap these become empty read-only folders (the private temporary folder
 * is mounted on /tmp), and /dev and /proc are the sandbox's own; Seatbelt denies them.
 */
export function concealedPathsFor(platform: SandboxPlatform, hostTmpDir: string): string[] {
  const candidates =
    platform === "linux"
      ? ["/tmp", "/var/tmp", "/run", "/var/run", "/dev", "/proc", hostTmpDir]
      : ["/private/tmp", "/private/var/tmp", "/private/var/run", hostTmpDir];
  const real = candidates.map((candidate) => realpathOrUndefined(candidate));
  return [...new Set(real.filter((candidate): candidate is string => candidate !== undefined))];
}

/**
 * What must stay visible inside the concealed folders: the DNS resolver's configuration (often a
 * symlink into /run) or socket (macOS), and NixOS's system profile, where every program lives.
 */
export function exposedPathsFor(platform: SandboxPlatform): string[] {
  if (platform === "darwin") return ["/private/var/run/mDNSResponder"];
  const resolver = realpathOrUndefined("/etc/resolv.conf");
  return [...(resolver === undefined ? [] : [resolver]), "/run/current-system"];
}

/** `~` and `~/...` under `home`; relative paths under `base`. */
export function expandPath(given: string, home: string, base: string): string {
  if (given === "~") return home;
  if (given.startsWith("~/")) return path.join(home, given.slice(2));
  return path.resolve(base, given);
}

function existingRealpath(given: string, absolute: string): string {
  try {
    return realpathSync(absolute);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "unknown error";
    throw new SandboxError(`config "sandbox.writable_roots": ${given} (${absolute}) cannot be used: ${code}`);
  }
}
