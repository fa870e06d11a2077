import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resolveSandboxSettings, Sandbox, SandboxError } from "../sandbox/index.js";
import {
  createBashTool,
  createEditTool,
  createReadTool,
  createWriteTool,
  type Tool,
  type ToolContext,
} from "../tools/index.js";
import { type TimingStats, timingStats } from "./timing-stats.js";

export interface SandboxBenchmarkRow {
  name: string;
  stats: TimingStats;
}

/** Folders in the larger project: the check after each command reads every one of them. */
const LARGE_PROJECT_FOLDERS = 10_000;

/**
 * One `bash` tool call running `true`, wall time from the call to its result: unconfined, then
 * under bubblewrap with the network off (the default) and on, and in a project of 10,000 folders
 * holding three nested repositories (the walk for git's control files). They take turns run by run,
 * so a change in the machine's load touches them alike; one untimed warm-up each. Undefined with
 * the reason when no sandbox can be made here.
 */
export async function runSandboxBenchmark(options: {
  runs: number;
}): Promise<{ rows: SandboxBenchmarkRow[] } | { skipped: string }> {
  const root = await mkdtemp(join(tmpdir(), "panto-bench-sandbox-"));
  const project = join(root, "project");
  await mkdir(join(project, ".git"), { recursive: true });
  const sandboxes: Sandbox[] = [];
  try {
    const large = join(root, "large");
    await makeLargeProject(large);
    const make = (network: boolean, projectRoot = project): Sandbox => {
      const settings = {
        ...resolveSandboxSettings(undefined, undefined),
        mode: "workspace-write" as const,
        network,
      };
      const sandbox = Sandbox.create(settings, {
        projectRoot,
        pantoHome: join(root, ".panto"),
        env: process.env,
      });
      sandboxes.push(sandbox);
      return sandbox;
    };
    const contexts: Array<{ name: string; context: ToolContext & { call?: Call } }> = [
      { name: "bash `true`, no sandbox", context: { cwd: project } },
      { name: "bash `true`, sandbox (network off)", context: { cwd: project, sandbox: make(false) } },
      { name: "bash `true`, sandbox (network on)", context: { cwd: project, sandbox: make(true) } },
      {
        name: `bash \`true\`, sandbox, ${LARGE_PROJECT_FOLDERS} folders`,
        context: { cwd: large, sandbox: make(false, large) },
      },
    ];
    contexts.push(
      ...fileToolContexts("bare.ts", "no sandbox", { cwd: project }),
      ...fileToolContexts("held.ts", "sandbox", { cwd: project, sandbox: make(false) }),
    );
    await writeFile(join(project, "bare.ts"), FILE_TEXT);
    await writeFile(join(project, "held.ts"), FILE_TEXT);
    const bash = createBashTool({ env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: root } });
    const timings = contexts.map(() => [] as number[]);
    for (let run = -1; run < options.runs; run++) {
      for (const [index, { context }] of contexts.entries()) {
        const started = performance.now();
        const output =
          context.call === undefined
            ? await bash.execute({ command: "true" }, context)
            : await context.call(context);
        if (output.isError) throw new Error(`bench command failed: ${JSON.stringify(output.content)}`);
        if (run >= 0) timings[index]?.push(performance.now() - started);
      }
    }
    return { rows: contexts.map(({ name }, index) => ({ name, stats: timingStats(timings[index] ?? []) })) };
  } catch (error) {
    if (error instanceof SandboxError) return { skipped: error.message };
    throw error;
  } finally {
    await Promise.all(sandboxes.map((sandbox) => sandbox.close()));
    await rm(root, { recursive: true, force: true });
  }
}

type Call = (context: ToolContext) => ReturnType<Tool["execute"]>;

/**
 * One `read`, `write` and `edit` call each on a 4 KB file of the project (`file`, which the edit
 * flips back and forth), for the file tools' per-call cost: in a sandbox every open goes through a
 * verified descriptor (openHeldFile): a folder opened and two readlinks of /proc/self/fd more.
 */
function fileToolContexts(
  file: string,
  label: string,
  base: ToolContext,
): Array<{ name: string; context: ToolContext & { call: Call } }> {
  const read = createReadTool();
  const write = createWriteTool();
  const edit = createEditTool();
  let flip = false;
  const editCall: Call = (context) => {
    flip = !flip;
    const [from, to] = flip ? ["a = 1;", "a = 2;"] : ["a = 2;", "a = 1;"];
    return edit.execute({ path: file, old_string: from, new_string: to, replace_all: true }, context);
  };
  const readCall: Call = (context) => read.execute({ path: file }, context);
  const writeCall: Call = (context) =>
    write.execute({ path: `written-${file}`, content: FILE_TEXT }, context);
  return [
    { name: `read 4 KB, ${label}`, context: { ...base, call: readCall } },
    { name: `write 4 KB, ${label}`, context: { ...base, call: writeCall } },
    { name: `edit 4 KB, ${label}`, context: { ...base, call: editCall } },
  ];
}

const FILE_TEXT = "export const a = 1;\n".repeat(200);

/** A project of LARGE_PROJECT_FOLDERS folders (100 of 99 each, and their parents) with three nested repositories. */
async function makeLargeProject(large: string): Promise<void> {
  const side = Math.sqrt(LARGE_PROJECT_FOLDERS);
  await mkdir(join(large, ".git"), { recursive: true });
  for (let outer = 0; outer < side; outer++) {
    for (let inner = 1; inner < side; inner++)
      await mkdir(join(large, `d${outer}`, `e${inner}`), { recursive: true });
  }
  for (const nested of ["d1/e1", "d50/e50", "d99/e99"])
    await mkdir(join(large, nested, ".git", "hooks"), { recursive: true });
}
