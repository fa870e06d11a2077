import { lstatSync, utimesSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { bubblewrapArgs } from "./bubblewrap-args.js";
import { loadCommandParts, loadedParts } from "./command-parts-loader.js";
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
import type { AfterCommand, PreparedCommand, ToolSandbox } from "./tool-sandbox.js";

export type { AfterCommand, PreparedCommand, ToolSandbox };

/** Two seconds: file systems with coarse times (FAT) round a change down by up to this much. */
const CTIME_MARGIN_NS = 2_000_000_000n;

/** The program that confines commands on this machine. */
export interface SandboxLauncher {
  kind: "bubblewrap" | "seatbelt";
  path: string;
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
  #readOnly: ToolSandbox | undefined;
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
    return this.#prepare(this.policy, command, cwd, env);
  }

  /**
   * This sandbox with nothing writable but its private temporary folder (mode read-only, no
   * writable roots, the rest of the policy as it is): plan mode's commands. It shares the launcher,
   * the private folders, the start check and the process limit with this one.
   */
  readOnlyView(): ToolSandbox {
    if (this.#readOnly !== undefined) return this.#readOnly;
    const policy: SandboxPolicy = { ...this.policy, mode: "read-only", writableRoots: [] };
    this.#readOnly = {
      policy,
      layout: () => sandboxLayout(policy),
      prepare: (command, cwd, env) => this.#prepare(policy, command, cwd, env),
      ready: (env) => this.ready(env),
    };
    return this.#readOnly;
  }

  #prepare(policy: SandboxPolicy, command: string, cwd: string, env: NodeJS.ProcessEnv): PreparedCommand {
    const { confinedShell, inCgroup } = loadedParts();
    const layout = sandboxLayout(policy);
    const bash = confinedShell(command, policy.limits);
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
    const seatbeltEnv = { ...env, TMPDIR: policy.tmp.host };
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
      roots: layout.policy.writableRoots,
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
