import { spawn } from "node:child_process";
import { CLI_PATH } from "./run-cli.js";

/** When to SIGKILL a CLI run. */
export type KillMoment =
  /** Right after the nth JSON line other than a warning arrives on stdout, plus `extraMs`. */
  | { after: "event"; count: number; extraMs: number }
  /** This long after the session_started line (0: at once), so the kill lands while it works. */
  | { after: "start"; ms: number }
  /** This long after the process was spawned: start-up, lock and session open included. */
  | { after: "spawn"; ms: number };

export interface KilledRun {
  /** False when the run finished on its own before the moment came. */
  killed: boolean;
  code: number | null;
  /** Every complete JSON line written before the process died: what it acknowledged. */
  events: Array<Record<string, unknown>>;
  stderr: string;
}

function parseLines(stdout: string): Array<Record<string, unknown>> {
  // A line cut by the kill is not an acknowledgement.
  return stdout.split("\n").flatMap((line) => {
    try {
      return line.trim() === "" ? [] : [JSON.parse(line) as Record<string, unknown>];
    } catch {
      return [];
    }
  });
}

/** Complete JSON lines that report progress: warnings (e.g. about an earlier crash) do not count. */
function progressLines(stdout: string): number {
  const complete = stdout.slice(0, stdout.lastIndexOf("\n") + 1);
  return parseLines(complete).filter((event) => event.type !== "warning").length;
}

/**
 * Runs the built CLI and SIGKILLs it at `moment`, or as soon as `stuck` resolves (the run waits on
 * a reply that never comes), whichever is first. Resolves once the process is gone, with all it
 * wrote to stdout.
 */
export function runAndKill(
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; moment: KillMoment; stuck: Promise<void> },
): Promise<KilledRun> {
  const child = spawn(process.execPath, [CLI_PATH, ...args], {
    cwd: options.cwd,
    env: options.env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  let exited = false;
  const kill = (): void => {
    if (!exited) child.kill("SIGKILL");
  };
  const { moment } = options;
  const timers: NodeJS.Timeout[] = [];
  const killIn = (ms: number): void => void timers.push(setTimeout(kill, ms));
  if (moment.after === "spawn") killIn(moment.ms);
  void options.stuck.then(kill);
  let armed = moment.after !== "spawn";
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
    if (!armed) return;
    const lines = progressLines(stdout);
    if (moment.after === "event" && lines >= moment.count) killIn(moment.extraMs);
    else if (moment.after === "start" && lines >= 1) killIn(moment.ms);
    else return;
    armed = false;
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("exit", () => {
      exited = true;
    });
    child.on("close", (code, signal) => {
      for (const timer of timers) clearTimeout(timer);
      resolve({ killed: signal === "SIGKILL", code, events: parseLines(stdout), stderr });
    });
  });
}
