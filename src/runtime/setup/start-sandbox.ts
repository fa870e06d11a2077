import { ConfigError, type SandboxConfig } from "../../config/index.js";
import type { SandboxMode, SandboxRecord } from "../../core/index.js";
import { Sandbox } from "../../sandbox/sandbox.js";
import { resolveSandboxSettings } from "../../sandbox/sandbox-settings.js";

/** How much each mode lets commands do: a pinned mode may be tightened, never loosened. */
const LOOSENESS: Record<SandboxMode, number> = { "read-only": 0, "workspace-write": 1, full: 2 };

/** The sandbox of one run: what the session and the front-ends are told, and the sandbox itself (none in mode full). */
export interface RunSandbox {
  record: SandboxRecord;
  sandbox?: Sandbox;
}

export interface StartSandboxInput {
  /** Config "sandbox". */
  config: SandboxMode | SandboxConfig | undefined;
  /** --sandbox MODE. */
  flag: SandboxMode | undefined;
  /** The mode the managed settings pin, and their file: nothing may be looser. */
  pinned?: { mode: SandboxMode; file: string };
  projectRoot: string;
  pantoHome: string;
  /** Where bwrap is found (PATH) and HOME. */
  env: NodeJS.ProcessEnv;
}

/**
 * Builds the run's sandbox from config and flag: a missing launcher fails here (a SandboxError
 * saying how to install it, or to choose `--sandbox full`). Whether it starts is checked before
 * the first command (`Sandbox.ready`), not here, so a run that runs no command never spawns it.
 */
export async function startSandbox(input: StartSandboxInput): Promise<RunSandbox> {
  const settings = resolveSandboxSettings(input.config, input.flag);
  const pinned = input.pinned;
  if (pinned !== undefined && LOOSENESS[settings.mode] > LOOSENESS[pinned.mode]) {
    throw new ConfigError(
      `the managed settings (${pinned.file}) pin the sandbox to "${pinned.mode}"; --sandbox ${settings.mode} would loosen it. Run with --sandbox ${pinned.mode}${pinned.mode === "read-only" ? "" : " or read-only"}.`,
      { file: pinned.file, key: "sandbox.mode" },
    );
  }
  if (settings.mode === "full") {
    return { record: { mode: "full", network: true, writableRoots: [] } };
  }
  const sandbox = Sandbox.create(
    { ...settings, mode: settings.mode },
    { projectRoot: input.projectRoot, pantoHome: input.pantoHome, env: input.env },
  );
  const { policy } = sandbox;
  return {
    record: { mode: policy.mode, network: policy.network, writableRoots: policy.writableRoots },
    sandbox,
  };
}
