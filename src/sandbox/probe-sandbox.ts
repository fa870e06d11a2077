import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { diagnoseNamespaces, sandboxStartError } from "./check-sandbox-starts.js";
import { CHECKS, type ProbeCheck } from "./probe-checks.js";
import { type ProbeWorld, probeWorld } from "./probe-world.js";
import { runConfined } from "./run-confined.js";
import { Sandbox, type SandboxEnvironment } from "./sandbox.js";
import { SandboxError } from "./sandbox-error.js";
import type { ConfinedMode } from "./sandbox-policy.js";
import type { SandboxSettings } from "./sandbox-settings.js";

/** What `panto sandbox` found. */
export interface ProbeReport {
  /** The mode configured; a `full` run is probed as workspace-write would run. */
  mode: string;
  probedMode: ConfinedMode;
  network: boolean;
  launcher: { kind: string; path: string; version?: string } | undefined;
  /** Set when no sandbox could be made or started: why, and how to fix it. */
  failure?: string;
  checks: ProbeCheck[];
  ok: boolean;
}

/**
 * Builds the configured sandbox around a scratch workspace (a git repository with .panto, beside a
 * folder outside it, a Unix socket and a TCP server on 127.0.0.1) and runs each rule for real,
 * with this user's own credential paths. Everything it makes is removed; nothing is written
 * outside its scratch folder unless a rule fails to hold (and then it is removed and reported).
 */
export async function probeSandbox(
  settings: SandboxSettings,
  environment: SandboxEnvironment & { pantoPid?: number },
): Promise<ProbeReport> {
  const probedMode: ConfinedMode = settings.mode === "read-only" ? "read-only" : "workspace-write";
  const base = { mode: settings.mode, probedMode, network: settings.network };
  const world = await probeWorld(environment.hostTmpDir);
  let sandbox: Sandbox | undefined;
  try {
    sandbox = Sandbox.create(
      { ...settings, mode: probedMode },
      { ...environment, projectRoot: world.workspace },
    );
    const launcher = { ...sandbox.launcher, ...versionOf(sandbox.launcher.path) };
    const env = { PATH: environment.env.PATH ?? "/usr/bin:/bin", HOME: environment.env.HOME ?? "/" };
    const start = await runConfined(sandbox, "exit 0", { cwd: world.workspace, env });
    if (!start.started || start.exitCode !== 0) {
      const failure = sandboxStartError(launcher.path, start.output.trim(), diagnoseNamespaces()).message;
      return { ...base, launcher, failure, checks: [], ok: false };
    }
    const checks = await runChecks(sandbox, world, env, environment.pantoPid ?? process.pid);
    return { ...base, launcher, checks, ok: checks.every((check) => check.ok) };
  } catch (error) {
    if (!(error instanceof SandboxError)) throw error;
    return { ...base, launcher: sandbox?.launcher, failure: error.message, checks: [], ok: false };
  } finally {
    await sandbox?.close();
    await world.remove();
  }
}

async function runChecks(
  sandbox: Sandbox,
  world: ProbeWorld,
  env: { PATH: string; HOME: string },
  pantoPid: number,
): Promise<ProbeCheck[]> {
  const run = async (command: string) =>
    (await runConfined(sandbox, command, { cwd: world.workspace, env })).output;
  const context = { sandbox, world, run, pantoPid, home: env.HOME };
  const results: ProbeCheck[] = [];
  for (const check of CHECKS) results.push(await check(context));
  return results;
}

function versionOf(launcher: string): { version?: string } {
  if (!existsSync(launcher) || launcher.endsWith("sandbox-exec")) return {};
  const result = spawnSync(launcher, ["--version"], { encoding: "utf8", timeout: 5000 });
  const version = result.stdout?.trim().split(/\s+/).at(-1);
  return version === undefined || version === "" ? {} : { version };
}
