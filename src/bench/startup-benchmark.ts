import { spawn } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startFakeAnthropicServer } from "../simulator/index.js";
import type { NodeBinary } from "./node-versions.js";
import { type TimingStats, timingStats } from "./timing-stats.js";

/** The installed command (package.json "bin") and the unbundled build it is made from. */
const BIN = fileURLToPath(new URL("../bin/panto.cjs", import.meta.url));
const UNBUNDLED = fileURLToPath(new URL("../cli/main.js", import.meta.url));

export interface StartupRow {
  name: string;
  stats: TimingStats;
  /** The run-by-run ratios to `node -e 0` (each run paired with node's run of the same round): median, min, max. */
  ratios: TimingStats;
  /** Median of those ratios. */
  ratio: number;
  /** The goal for that ratio, when it has one. */
  goal?: number;
}

/**
 * Whole-process wall time of `node -e 0` (the floor), `panto --version`, `panto --help` and
 * `panto -p hi` answered by a fake Anthropic server on 127.0.0.1 (also in a project with a config
 * file), plus `-p` through the unbundled
 * build for comparison, all with one Node (`options.node`, default this one); on Node 22 and later
 * also `-p` with the compile cache turned off. The commands take turns run by run, so a change in
 * the machine's load touches them all alike; one untimed warm-up run each (which also fills the
 * compile cache, so the timed runs are the "later starts" it speeds up).
 */
export async function runStartupBenchmark(options: {
  runs: number;
  /** The Node to run everything with (default: this one). */
  node?: NodeBinary;
}): Promise<StartupRow[]> {
  const execPath = options.node?.execPath ?? process.execPath;
  const version = options.node?.version ?? process.version;
  // Node 22.1+ keeps a compile cache (panto turns it on); Node 20 has none to turn off.
  const hasCompileCache = Number(/^v(\d+)/.exec(version)?.[1]) >= 22;
  const server = await startFakeAnthropicServer();
  const root = await mkdtemp(join(tmpdir(), "panto-bench-start-"));
  try {
    const home = join(root, "home");
    const project = join(root, "project");
    await mkdir(home, { recursive: true });
    await mkdir(join(project, ".git"), { recursive: true });
    // A project with its own settings, as most have: the warm-up run validates the file, the timed
    // runs read it unchanged (src/config/config-verdicts.ts).
    const configured = join(root, "configured");
    await mkdir(join(configured, ".git"), { recursive: true });
    await mkdir(join(configured, ".panto"), { recursive: true });
    await writeFile(
      join(configured, ".panto", "config.json"),
      `${JSON.stringify({ clearing: { keep_recent: 4 }, permissions: { allow: ["Bash(npm test:*)"] }, timeouts: { idle_ms: 60000 } }, null, 2)}\n`,
    );
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: root,
      PANTO_HOME: home,
      NO_COLOR: "1",
      ANTHROPIC_API_KEY: "bench-key",
      ANTHROPIC_BASE_URL: server.url,
    };
    const print = ["-m", "anthropic/claude-sonnet-4-5", "-p", "hi"];
    const commands: Array<{
      name: string;
      args: string[];
      off?: boolean;
      acp?: boolean;
      goal?: number;
      cwd?: string;
    }> = [
      { name: "node -e 0 (node's own start)", args: ["-e", "0"] },
      { name: "panto --version", args: [BIN, "--version"], goal: 1.1 },
      { name: "panto --help", args: [BIN, "--help"] },
      { name: "panto -p hi (fake server)", args: [BIN, ...print], goal: 2 },
      { name: "panto -p hi, project config", args: [BIN, ...print], cwd: configured },
      { name: "panto acp, initialize answered", args: [BIN, "acp"], acp: true, goal: 2 },
      { name: "unbundled dist/cli/main.js -p hi", args: [UNBUNDLED, ...print] },
    ];
    if (hasCompileCache) {
      commands.push({ name: "panto -p hi, compile cache off", args: [BIN, ...print], off: true });
      commands.push({ name: "panto acp, compile cache off", args: [BIN, "acp"], acp: true, off: true });
    }
    const timings = commands.map(() => [] as number[]);
    for (let run = -1; run < options.runs; run++) {
      for (const [index, command] of commands.entries()) {
        const commandEnv = command.off === true ? { ...env, NODE_DISABLE_COMPILE_CACHE: "1" } : env;
        const time = command.acp === true ? timeAcpInitialize : timeProcess;
        const which = run < 0 ? "the warm-up run" : `run ${run + 1} of ${options.runs}`;
        const ms = await time(execPath, command.args, { cwd: command.cwd ?? project, env: commandEnv }).catch(
          (error: unknown) => {
            const message = error instanceof Error ? error.message : String(error);
            throw new Error(
              `start-up "${command.name}", ${which}, node ${version} (${execPath}): ${message}`,
            );
          },
        );
        if (run >= 0) timings[index]?.push(ms);
      }
    }
    const floor = timings[0] ?? [];
    return commands.map((command, index) => {
      const times = timings[index] ?? [];
      const ratios = timingStats(times.map((ms, run) => ms / (floor[run] ?? Number.NaN)));
      return {
        name: command.name,
        stats: timingStats(times),
        ratios,
        ratio: ratios.medianMs,
        ...(command.goal === undefined ? {} : { goal: command.goal }),
      };
    });
  } finally {
    await server.close();
    await rm(root, { recursive: true, force: true });
  }
}

/** Milliseconds from spawning `node ...args` to its exit; a failed run is an error. */
function timeProcess(
  execPath: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(execPath, args, { ...options, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on("error", reject);
    child.on("close", (code) => {
      const ms = performance.now() - started;
      if (code === 0) resolve(ms);
      else reject(new Error(`node ${args.join(" ")} exited with ${code}: ${stderr}`));
    });
  });
}

/**
 * Milliseconds from spawning `node ...args` (`panto acp`) to its answer to `initialize` on stdout;
 * the process is then told to end by closing its input. No answer, an error answer or a failed
 * exit is an error.
 */
function timeAcpInitialize(
  execPath: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(execPath, args, { ...options, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    let answeredMs: number | undefined;
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      if (answeredMs !== undefined || !stdout.includes("\n")) return;
      answeredMs = performance.now() - started;
      child.stdin.end();
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      const answer = stdout.split("\n")[0] ?? "";
      if (answeredMs !== undefined && code === 0 && answer.includes('"result"')) resolve(answeredMs);
      else
        reject(
          new Error(`node ${args.join(" ")} did not answer initialize (exit ${code}): ${answer} ${stderr}`),
        );
    });
    const initialize = {
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: 1, clientCapabilities: {} },
    };
    child.stdin.write(`${JSON.stringify(initialize)}\n`);
  });
}
