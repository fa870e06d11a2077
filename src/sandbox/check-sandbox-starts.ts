import { existsSync, readFileSync } from "node:fs";
import { runConfined } from "./run-confined.js";
import { SandboxError } from "./sandbox-error.js";
import type { ToolSandbox } from "./tool-sandbox.js";

/** The way out that always exists, said at the end of every start failure. */
export const WITHOUT_SANDBOX =
  'or run the model\'s commands without a sandbox: --sandbox full (config "sandbox": "full").';

/**
 * Starts one empty command in the sandbox, so a machine that cannot run it (user namespaces off,
 * AppArmor, a container's seccomp filter) fails before the model's first command, with what failed
 * and how to fix it, instead of running anything unconfined. Throws a SandboxError.
 */
export async function checkSandboxStarts(
  sandbox: ToolSandbox & { readonly launcher: { readonly path: string } },
  env: NodeJS.ProcessEnv,
): Promise<void> {
  const cwd = sandbox.policy.projectRoot;
  const result = await runConfined(sandbox, "exit 0", { cwd, env }).catch((error: unknown) => ({
    output: error instanceof Error ? error.message : String(error),
    exitCode: null,
    started: false,
  }));
  if (result.started && result.exitCode === 0) return;
  throw sandboxStartError(sandbox.launcher.path, result.output.trim(), diagnoseNamespaces());
}

/** The message for a sandbox that did not start: the launcher's words, the likely causes, the fixes. */
export function sandboxStartError(launcher: string, said: string, causes: readonly string[]): SandboxError {
  const what = said === "" ? "it exited without a word" : said.split("\n").slice(0, 3).join("; ");
  const why = causes.length === 0 ? "" : ` Likely cause: ${causes.join("; ")}.`;
  return new SandboxError(
    `the sandbox could not start (${launcher}: ${what}), so the model's commands will not run.${why} Fix that (panto sandbox checks each rule), ${WITHOUT_SANDBOX}`,
  );
}

/** Reads a /proc setting; undefined where the kernel has no such setting. */
export type SettingReader = (file: string) => string | undefined;

const readSetting: SettingReader = (file) => {
  try {
    return readFileSync(file, "utf8").trim();
  } catch {
    return undefined;
  }
};

/**
 * What on this machine keeps unprivileged user namespaces from being created, as "cause: fix"
 * phrases; empty when none of the known settings is against them.
 */
export function diagnoseNamespaces(
  read: SettingReader = readSetting,
  inContainer = runsInContainer(),
): string[] {
  const causes: string[] = [];
  if (read("/proc/sys/user/max_user_namespaces") === "0") {
    causes.push(
      "user namespaces are disabled (user.max_user_namespaces = 0): sysctl -w user.max_user_namespaces=15000",
    );
  }
  if (read("/proc/sys/kernel/unprivileged_userns_clone") === "0") {
    causes.push(
      "unprivileged user namespaces are disabled (kernel.unprivileged_userns_clone = 0): sysctl -w kernel.unprivileged_userns_clone=1",
    );
  }
  if (read("/proc/sys/kernel/apparmor_restrict_unprivileged_userns") === "1") {
    causes.push(
      "AppArmor restricts unprivileged user namespaces (kernel.apparmor_restrict_unprivileged_userns = 1): install an AppArmor profile allowing bwrap to use them, or sysctl -w kernel.apparmor_restrict_unprivileged_userns=0",
    );
  }
  if (inContainer) {
    causes.push(
      "panto runs in a container, whose seccomp profile usually refuses namespaces: start the container with --security-opt seccomp=unconfined (Docker, Podman), or choose --sandbox full inside it and let the container be the sandbox",
    );
  }
  return causes;
}

function runsInContainer(): boolean {
  if (existsSync("/.dockerenv") || existsSync("/run/.containerenv")) return true;
  return /docker|containerd|kubepods|lxc/.test(readSetting("/proc/1/cgroup") ?? "");
}
