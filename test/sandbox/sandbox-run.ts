import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach } from "vitest";
import {
  type ConfinedMode,
  resolveSandboxSettings,
  Sandbox,
  type SandboxSettings,
} from "../../src/sandbox/index.js";
import { createBashTool, type ToolOutput } from "../../src/tools/index.js";
import { useTempDir } from "../support/use-temp-dir.js";
import { makeWorld, type SandboxWorld } from "./sandbox-fixture.js";
import { giveTo, launcherPath, type SandboxUser } from "./sandbox-users.js";

/** A world, its sandbox as `user` runs it, and a way to run bash commands in it. */
export interface SandboxRun {
  world: SandboxWorld;
  sandbox: Sandbox;
  /** Runs `command` with the real bash tool, in the sandbox, from the project. */
  bash(
    command: string,
    options?: { timeoutMs?: number; signal?: AbortSignal },
  ): Promise<{ text: string; isError: boolean }>;
}

/**
 * Registers hooks for a fresh world per test, and returns a function building its sandbox (real
 * bubblewrap, found on PATH) for `user` with the given settings; everything is removed afterwards.
 */
export function useSandboxRun(user: SandboxUser): (settings?: Partial<SandboxSettings>) => SandboxRun {
  const temp = useTempDir("panto-bwrap-", { resolveLinks: true });
  const sandboxes: Sandbox[] = [];
  afterEach(async () => {
    await Promise.all(sandboxes.splice(0).map((sandbox) => sandbox.close()));
  });
  return (settings = {}) => {
    const world = makeWorld(temp());
    const resolved = { ...resolveSandboxSettings(undefined, undefined), ...settings };
    const mode: ConfinedMode = resolved.mode === "read-only" ? "read-only" : "workspace-write";
    const env = { PATH: launcherPath(user, path.join(world.base, "bin")), HOME: world.home };
    const sandbox = Sandbox.create(
      { ...resolved, mode },
      { projectRoot: world.project, pantoHome: world.pantoHome, env },
    );
    sandboxes.push(sandbox);
    giveTo(user, world.base);
    giveTo(user, path.dirname(sandbox.policy.tmp.host));
    const tool = createBashTool({
      env: { PATH: process.env.PATH, HOME: world.home, PANTO_HOME: world.pantoHome },
    });
    return {
      world,
      sandbox,
      async bash(command, options = {}) {
        const output = await tool.execute(
          { command, ...(options.timeoutMs === undefined ? {} : { timeout_ms: options.timeoutMs }) },
          {
            cwd: world.project,
            sandbox,
            ...(options.signal === undefined ? {} : { signal: options.signal }),
          },
        );
        return { text: textOf(output), isError: output.isError };
      },
    };
  };
}

function textOf(output: ToolOutput): string {
  return output.content.map((block) => (block.type === "text" ? block.text : "")).join("");
}

/** Live (not zombie) processes of this machine whose command line contains `marker`. */
export function processesWith(marker: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const cmdline = readOr(`/proc/${name}/cmdline`).replace(/\0/g, " ");
    if (!cmdline.includes(marker)) continue;
    if (/^\d+ \(.*\) Z/.test(readOr(`/proc/${name}/stat`))) continue;
    found.push(Number(name));
  }
  return found;
}

/** Waits up to `ms` for no process to match `marker`; returns those still there. */
export async function waitForNoProcess(marker: string, ms = 5000): Promise<number[]> {
  const deadline = Date.now() + ms;
  for (;;) {
    const left = processesWith(marker);
    if (left.length === 0 || Date.now() > deadline) return left;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function readOr(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return "";
  }
}
