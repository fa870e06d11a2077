import { lstatSync, utimesSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { bubblewrapArgs } from "./bubblewrap-args.js";
import { findExecutable } from "./find-executable.js";
import type { FolderListings } from "./find-repositories.js";
import { userGitConfigs } from "./git-hooks-path.js";
import type { PidsCgroup } from "./pids-cgroup.js";
import { createPrivateFolders, type PrivateFolders } from "./private-folders.js";
import { restoreWatched } from "./restore-watched.js";
import { SandboxError } from "./sandbox-error.js";
import { type SandboxLayout, sandboxLayout } from "./sandbox-layout.js";
import {
  buildSandboxPolicy,
  type ConfinedMode,
  type SandboxPlatform,
  type SandboxPolicy,
} from "./sandbox-policy.js";
import type { SandboxSettings } from "./sandbox-settings.js";
import { seatbeltProfile } from "./seatbelt-profile.js";
import type { SharedLoopback } from "./shared-loopback.js";

/** What starting and checking a command needs (command-parts.ts), once the first command loaded it. */
let commandParts: typeof import("./command-parts.js") | undefined;

/**
 * Loads what starting a command needs; `prepare` may be called once this has resolved. `ready`
 * and `runConfined` call it, so a run that starts no command never loads the limits and the git walk.
 */
export async function loadCommandParts(): Promise<void> {
  commandParts ??= await import("./command-parts.js");
}

function loadedParts(): typeof import("./command-parts.js") {
  if (commandParts === undefined)
    throw new SandboxError("internal: a command was prepared before the sandbox's command code was loaded");
  return commandParts;
}

/** Two seconds: file systems with coarse times (FAT) round a change down by up to this much. */
const CTIME_MARGIN_NS = 2_000_000_000n;

/** The program that confines commands on this machine. */
export interface SandboxLauncher {
  kind: "bubblewrap" | "seatbelt";
  path: string;
}

/**
 * How to start one command: the program and its arguments, and whether bubblewrap reports on file
 * descriptor 3 whether the command itself started (so a sandbox that failed to start is told
 * apart from a command that failed). `layout` is what the command runs under; `finish`, called
 * once the command's processes are gone, puts back what it may not change (see AfterCommand).
 */
export interface PreparedCommand {
  file: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  statusFd: boolean;
  layout: SandboxLayout;
  finish(): AfterCommand;
}

/** What the check after a command found, one line each, for the model and the user. */
export interface AfterCommand {
  /** Protected paths the command changed, each put back or aside: the command did not do all it meant to. */
  refused: string[];
  /** Changes left in place that deserve a look (a `.gitmodules`), and checks cut short. */
  notes: string[];
}

/**
 * What a tool call needs of a sandbox (ToolContext.sandbox): the policy, the layout to check paths
 * against, and how to start a command confined. `Sandbox` is the real one.
 */
export interface ToolSandbox {
  readonly policy: SandboxPolicy;
  layout(): SandboxLayout;
  prepare(command: string, cwd: string, env: NodeJS.ProcessEnv): PreparedCommand;
  /**
   * Resolves once the sandbox is known to start on this machine, rejects with a SandboxError
   * saying why it cannot; awaited before the first command, so a run that starts none never pays it.
   */
  ready?(env: NodeJS.ProcessEnv): Promise<void>;
  /**
   * From now on, run every command of this sandbox in one shared network namespace (a loopback
   * only, when the network is off), so a server started in the background can be reached by later
   * commands; awaited before a background command starts. Where it cannot, nothing changes.
   */
  shareLoopback?(): Promise<void>;
}

/** What a sandbox is built from besides the settings. */
export interface SandboxEnvironment {
  projectRoot: string;
  /** `$PANTO_HOME`, hidden from commands. */
  pantoHome: string;
  /** Where `bwrap` is looked for (PATH) and HOME. */
  env: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  hostTmpDir?: string;
}

/**
 * The sandbox of one run: its policy, the program enforcing it, and its private folders. Commands
 * go through `prepare`; the file tools check paths against `layout()`.
 */
export class Sandbox implements ToolSandbox {
  readonly policy: SandboxPolicy;
  readonly launcher: SandboxLauncher;
  readonly #folders: PrivateFolders;
  /** Made at the first command where the system lets panto (undefined: not tried yet; null: none). */
  #cgroup: PidsCgroup | null | undefined;
  #started: Promise<void> | undefined;
  /** The writable folders' listings, kept between commands so the check after one reads only what changed. */
  #listings: FolderListings | undefined;
  /** Where nsenter is looked for (PATH). */
  readonly #searchPath: string | undefined;
  /** The network namespace commands share once a background command asked for it (SharedLoopback). */
  #loopback: Promise<void> | undefined;
  #joined: SharedLoopback | undefined;
  #closed = false;

  private constructor(
    policy: SandboxPolicy,
    launcher: SandboxLauncher,
    folders: PrivateFolders,
    searchPath: string | undefined,
  ) {
    this.policy = policy;
    this.launcher = launcher;
    this.#folders = folders;
    this.#searchPath = searchPath;
  }

  /**
   * Finds the launcher and builds the policy; a SandboxError says what is missing and how to fix it.
   * Nothing is started here (see probeSandboxStart).
   */
  static create(
    settings: SandboxSettings & { mode: ConfinedMode },
    environment: SandboxEnvironment,
  ): Sandbox {
    const platform = sandboxPlatform(environment.platform ?? process.platform);
    const launcher = findLauncher(platform, environment.env.PATH);
    const hostTmpDir = environment.hostTmpDir ?? os.tmpdir();
    const folders = createPrivateFolders(hostTmpDir);
    const home = environment.env.HOME ?? os.homedir();
    try {
      const policy = buildSandboxPolicy(settings, {
        projectRoot: environment.projectRoot,
        home,
        gitConfigs: userGitConfigs(environment.env, home),
        pantoHome: environment.pantoHome,
        tmp: { host: folders.tmp, view: platform === "linux" ? "/tmp" : folders.tmp },
        sealedFile: folders.sealedFile,
        platform,
        hostTmpDir,
      });
      return new Sandbox(policy, launcher, folders, environment.env.PATH);
    } catch (error) {
      void folders.remove();
      throw error;
    }
  }

  /** The policy resolved against the file system now. */
  layout(): SandboxLayout {
    return sandboxLayout(this.policy);
  }

  /** How to run `command` with /bin/bash -c in `cwd`, confined and within the policy's limits. */
  prepare(command: string, cwd: string, env: NodeJS.ProcessEnv): PreparedCommand {
    const { confinedShell, inCgroup } = loadedParts();
    const layout = this.layout();
    const bash = confinedShell(command, this.policy.limits);
    const since = this.#stamp();
    const finish = (): AfterCommand => this.#finish(layout, since);
    if (this.launcher.kind === "bubblewrap") {
      const joined = this.#joined;
      const own = bubblewrapArgs(layout, cwd);
      const argv = [
        ...(joined === undefined ? [] : joined.prefix()),
        this.launcher.path,
        ...(joined === undefined ? own : own.filter((arg) => arg !== "--unshare-net")),
        "--json-status-fd",
        "3",
        "--",
        ...bash,
      ];
      const cgroup = this.#pidsCgroup();
      const [file, ...args] = cgroup === undefined ? argv : inCgroup(cgroup.joinFile, argv);
      return { file: file ?? this.launcher.path, args, env, statusFd: true, layout, finish };
    }
    const seatbeltEnv = { ...env, TMPDIR: this.policy.tmp.host };
    return {
      file: this.launcher.path,
      args: ["-p", seatbeltProfile(layout), ...bash],
      env: seatbeltEnv,
      statusFd: false,
      layout,
      finish,
    };
  }

  /**
   * Starts one empty command in the sandbox the first time it is asked, so a machine that cannot
   * run it (user namespaces off, AppArmor, a container's seccomp filter) fails before the model's
   * first command, with what failed and how to fix it; later calls share that verdict. Not done when
   * the run starts: a run that never runs a command never spawns the launcher.
   */
  ready(env: NodeJS.ProcessEnv): Promise<void> {
    this.#started ??= Promise.all([import("./check-sandbox-starts.js"), loadCommandParts()]).then(
      ([{ checkSandboxStarts }]) => checkSandboxStarts(this, env),
    );
    return this.#started;
  }

  shareLoopback(): Promise<void> {
    if (this.launcher.kind !== "bubblewrap" || this.policy.network) return Promise.resolve();
    const nsenter = findExecutable("nsenter", this.#searchPath);
    if (nsenter === undefined) return Promise.resolve();
    const bwrap = this.launcher.path;
    // Loaded when a background command first needs it: most runs never do.
    this.#loopback ??= import("./shared-loopback.js")
      .then(async ({ SharedLoopback }) => SharedLoopback.start(bwrap, nsenter))
      .then(
        (loopback) => {
          if (this.#closed) loopback.close();
          else this.#joined = loopback;
        },
        // Without it each command keeps a namespace of its own, as before.
        () => undefined,
      );
    return this.#loopback;
  }

  /** Removes the private folders and the cgroup, and ends the shared namespace. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#joined?.close();
    this.#cgroup?.remove();
    await this.#folders.remove();
  }

  /**
   * The file system's time now (ns), less a margin for file systems that keep times coarser
   * (FAT's 2 s): what a command changes gets a ctime at or after it.
   */
  #stamp(): bigint {
    const now = new Date();
    utimesSync(this.#folders.stampFile, now, now);
    return lstatSync(this.#folders.stampFile, { bigint: true }).ctimeNs - CTIME_MARGIN_NS;
  }

  #finish(layout: SandboxLayout, since: bigint): AfterCommand {
    // The git check first: a watched path it would see changed is put back by restoreWatched.
    const watched = layout.watched.map((entry) => entry.path);
    const parts = loadedParts();
    this.#listings ??= new parts.FolderListings();
    const git = parts.putAsideGitChanges({
      roots: this.policy.writableRoots,
      since,
      watched,
      listings: this.#listings,
      userGit: this.policy.git,
    });
    const restored = restoreWatched(layout.watched);
    return { refused: [...restored, ...git.refused], notes: git.notes };
  }

  /**
   * For root only: RLIMIT_NPROC (confinedShell) bounds everyone else, and others may not make a
   * cgroup v1 anyway (joining one costs a command a shell's start, about 1 ms: see PidsCgroup).
   */
  #pidsCgroup(): PidsCgroup | undefined {
    if (process.getuid?.() !== 0) return undefined;
    if (this.#cgroup === undefined) {
      const name = `panto-${process.pid}-${path.basename(path.dirname(this.policy.tmp.host))}`;
      this.#cgroup = loadedParts().createPidsCgroup(this.policy.limits.maxProcesses, name) ?? null;
    }
    return this.#cgroup ?? undefined;
  }
}

function sandboxPlatform(platform: NodeJS.Platform): SandboxPlatform {
  if (platform === "linux" || platform === "darwin") return platform;
  throw new SandboxError(
    `panto has no sandbox for ${platform}; the model's commands are not run unconfined. Run with --sandbox full (config "sandbox": "full") to run them without one.`,
  );
}

function findLauncher(platform: SandboxPlatform, searchPath: string | undefined): SandboxLauncher {
  if (platform === "darwin") {
    return { kind: "seatbelt", path: findExecutable("sandbox-exec", "/usr/bin") ?? "/usr/bin/sandbox-exec" };
  }
  const found = findExecutable("bwrap", searchPath);
  if (found !== undefined) return { kind: "bubblewrap", path: found };
  throw new SandboxError(
    'the sandbox needs bubblewrap (bwrap), which is not on PATH. Install it (Debian, Ubuntu: apt install bubblewrap; Fedora: dnf install bubblewrap; Arch: pacman -S bubblewrap), or run the model\'s commands without a sandbox: --sandbox full (config "sandbox": "full").',
  );
}
