import { type ChildProcess, spawn } from "node:child_process";
import { closeSync, openSync } from "node:fs";
import { mkdir, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The built CLI; `npm test` builds before vitest runs (run `npm run build` yourself otherwise). */
export const PANTO_MAIN = fileURLToPath(new URL("../../dist/cli/main.js", import.meta.url));

export interface Sandbox {
  root: string;
  /** PANTO_HOME */
  home: string;
  /** A project folder (holds .git/) used as the working directory. */
  project: string;
  /** An environment without real keys: HOME and PANTO_HOME in the sandbox, no colour, fast retries. */
  env: NodeJS.ProcessEnv;
}

export async function makeSandbox(): Promise<Sandbox> {
  const root = await mkdtemp(join(tmpdir(), "panto-cli-"));
  const home = join(root, "home");
  const project = join(root, "project");
  await mkdir(join(project, ".git"), { recursive: true });
  await mkdir(home, { recursive: true });
  return {
    root,
    home,
    project,
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: root,
      PANTO_HOME: home,
      NO_COLOR: "1",
      PANTO_RETRY_BASE_MS: "1",
      PANTO_MAX_RETRIES: "1",
    },
  };
}

export interface PantoRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Written to stdin, which is then closed. Without it stdin is closed at once (not a terminal). */
  input?: string;
  /** Leave stdin open (not closed after `input`): the test ends it itself through `onSpawn`. */
  keepStdinOpen?: boolean;
  /** A file (or /dev/null) opened as stdin in place of the pipe: `panto ... < file`. */
  stdinFile?: string;
  /** Called once the process has started; may send it signals. */
  onSpawn?: (child: ChildProcess, output: { stdout: () => string; stderr: () => string }) => void;
}

/** Runs `node dist/cli/main.js ...args` to completion and collects its output. */
export function runPanto(args: readonly string[], options: RunOptions): Promise<PantoRun> {
  return new Promise((resolve, reject) => {
    const stdinFd = options.stdinFile === undefined ? undefined : openSync(options.stdinFile, "r");
    const child = spawn(process.execPath, [PANTO_MAIN, ...args], {
      cwd: options.cwd,
      env: options.env,
      stdio: [stdinFd ?? "pipe", "pipe", "pipe"],
    });
    if (stdinFd !== undefined) closeSync(stdinFd);
    let stdout = "";
    let stderr = "";
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
    // With stdinFile there is no pipe to write to.
    if (options.keepStdinOpen === true) child.stdin?.write(options.input ?? "");
    else child.stdin?.end(options.input ?? "");
    options.onSpawn?.(child, { stdout: () => stdout, stderr: () => stderr });
  });
}

/** Parses --json output: every stdout line must be one JSON object. */
export function jsonLines(stdout: string): Array<{ type: string } & Record<string, unknown>> {
  return stdout
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as { type: string } & Record<string, unknown>);
}
