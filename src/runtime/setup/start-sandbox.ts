import type { SandboxConfig } from "../../config/index.js";
import type { SandboxMode, SandboxRecord } from "../../core/index.js";
import { checkSandboxStarts, resolveSandboxSettings, Sandbox } from "../../sandbox/index.js";

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
  projectRoot: string;
  pantoHome: string;
  /** Where bwrap is found (PATH) and HOME. */
  env: NodeJS.ProcessEnv;
  /** The environment the model's commands get, used for the start check. */
  bashEnv: NodeJS.ProcessEnv;
}

/**
 * Builds the run's sandbox from config and flag and starts one empty command in it, so a machine
 * that cannot confine commands fails here (a SandboxError saying what failed and how to fix it,
 * or to choose `--sandbox full`) instead of running the model's commands unconfined.
 */
export async function startSandbox(input: StartSandboxInput): Promise<RunSandbox> {
  const settings = resolveSandboxSettings(input.config, input.flag);
  if (settings.mode === "full") {
    return { record: { mode: "full", network: true, writableRoots: [] } };
  }
  const sandbox = Sandbox.create(
    { ...settings, mode: settings.mode },
    { projectRoot: input.projectRoot, pantoHome: input.pantoHome, env: input.env },
  );
  try {
    await checkSandboxStarts(sandbox, input.bashEnv);
  } catch (error) {
    await sandbox.close();
    throw error;
  }
  const { policy } = sandbox;
  return {
    record: { mode: policy.mode, network: policy.network, writableRoots: policy.writableRoots },
    sandbox,
  };
}
