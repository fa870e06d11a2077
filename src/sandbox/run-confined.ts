import { spawn } from "node:child_process";
import { loadCommandParts } from "./command-parts-loader.js";
import type { ToolSandbox } from "./tool-sandbox.js";

/** How a short command run in the sandbox ended. */
export interface ConfinedResult {
  /** stdout and stderr together. */
  output: string;
  exitCode: number | null;
  /** bubblewrap reported that the command itself ran (always true for other launchers that exited). */
  started: boolean;
}

/**
 * Runs a short command in the sandbox and collects all it prints: for the start check and
 * `panto sandbox`, which need neither output caps nor interrupts (the bash tool has those).
 */
export async function runConfined(
  sandbox: ToolSandbox,
  command: string,
  options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<ConfinedResult> {
  await loadCommandParts();
  const prepared = sandbox.prepare(command, options.cwd, options.env);
  return new Promise((resolve, reject) => {
    const child = spawn(prepared.file, prepared.args, {
      cwd: options.cwd,
      env: prepared.env,
      stdio: ["ignore", "pipe", "pipe", prepared.statusFd ? "pipe" : "ignore"],
      detached: true,
    });
    let output = "";
    let status = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stdio[3]?.on("data", (chunk: Buffer) => {
      status += chunk.toString();
    });
    const timer = setTimeout(() => {
      if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
    }, options.timeoutMs ?? 10_000);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (exitCode) => {
      clearTimeout(timer);
      resolve({ output, exitCode, started: !prepared.statusFd || status.includes('"exit-code"') });
    });
  });
}
