import { execFileSync } from "node:child_process";
import { copyFile, mkdir, readdir, readFile, realpath, rm, stat, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { SessionCheckpoints, storeDirectory } from "../checkpoints/index.js";
import { openSession, type Session } from "../session/index.js";
import type { Tool } from "../tools/index.js";
import { childCpuMs } from "./child-cpu.js";
import { type TimingStats, timingStats } from "./timing-stats.js";

/** One workspace's figures: per-call overhead of a bash checkpoint (before and after), its first snapshot. */
export interface BashOverhead {
  files: number;
  stats: TimingStats;
  /** CPU time per call, panto's own and git's (Linux; undefined elsewhere). */
  cpuMs?: number;
  /** The session's first snapshot (it records the whole workspace). */
  firstMs: number;
}

const BASH: Tool = {
  kind: "exec",
  definition: { name: "bash", description: "", parameters: {} },
  execute: async () => ({ content: [], isError: false }),
};
const GIT = ["-c", "user.name=bench", "-c", "user.email=bench@example.com", "-c", "core.fsmonitor=false"];

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", [...GIT, ...args], { cwd, encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
}

/** A git project holding a copy of the files `source` tracks (this repository, in `npm run bench`). */
export async function copyTrackedFiles(source: string, target: string): Promise<number> {
  const files = git(source, "ls-files", "-z")
    .split("\0")
    .filter((path) => path !== "");
  let copied = 0;
  for (const path of files) {
    const from = join(source, path);
    if (!(await stat(from).catch(() => undefined))?.isFile()) continue;
    await mkdir(dirname(join(target, path)), { recursive: true });
    await copyFile(from, join(target, path));
    copied++;
  }
  git(target, "init", "-q");
  git(target, "add", "-A");
  git(target, "commit", "-q", "-m", "copy");
  return copied;
}

/** A git project of `count` source-like files (50 per folder, 1-4 KB each), committed. */
export async function syntheticProject(target: string, count: number): Promise<void> {
  for (let index = 0; index < count; index++) {
    const group = Math.floor(index / 50);
    const folder = join(target, "src", `m${group % 30}`, `p${group}`);
    if (index % 50 === 0) await mkdir(folder, { recursive: true });
    const line = `export const value${index} = ${(index * 7919) % 100003};\n`;
    await writeFile(join(folder, `f${index % 50}.ts`), line.repeat(30 + (index % 90)));
  }
  await writeFile(join(target, ".gitignore"), "node_modules/\n*.log\n");
  git(target, "init", "-q");
  git(target, "add", "-A");
  git(target, "commit", "-q", "-m", "synthetic");
}

let callNumber = 0;

/** Times a checkpoint's before and after around one change (not timed itself). */
async function timedCall(recorder: SessionCheckpoints, root: string, change: () => Promise<void>) {
  const call = {
    type: "tool-call" as const,
    id: `bench_${++callNumber}`,
    name: "bash",
    arguments: { command: "…" },
  };
  let started = performance.now();
  const token = await recorder.before(call, BASH, root);
  let elapsed = performance.now() - started;
  await change();
  started = performance.now();
  const entry = await recorder.after(token, {
    type: "tool-result",
    toolCallId: call.id,
    toolName: "bash",
    content: [],
    isError: false,
  });
  elapsed += performance.now() - started;
  if (entry?.error !== undefined) throw new Error(`checkpoint failed: ${entry.error}`);
  return { elapsed, entry };
}

/**
 * Overhead of checkpointing a `bash` call in the workspace at `root`: `runs` calls, each changing
 * one file, after one untimed first snapshot. CPU counts panto's process and the git it runs.
 */
export async function measureBashOverhead(
  root: string,
  home: string,
  runs: number,
  options: { watch?: boolean } = {},
): Promise<BashOverhead> {
  const session = await openSession(join(home, `bench-${Date.now()}.jsonl`), {
    cwd: root,
    onWarning: () => {},
  });
  try {
    const recorder = new SessionCheckpoints({
      session,
      pantoHome: home,
      cwd: root,
      limits: { watch: options.watch ?? true },
    });
    const first = await timedCall(recorder, root, async () => {});
    const files = git(root, "ls-files")
      .split("\n")
      .filter((path) => path.endsWith(".ts"))
      .slice(0, runs);
    const times: number[] = [];
    const cpuStart = childCpuMs();
    const selfStart = process.cpuUsage();
    for (let run = 0; run < runs; run++) {
      const target = join(root, files[run % files.length] as string);
      const { elapsed } = await timedCall(recorder, root, async () => {
        await writeFile(target, `${await readFile(target, "utf8")}// run ${run}\n`);
      });
      times.push(elapsed);
    }
    const self = process.cpuUsage(selfStart);
    const children = childCpuMs();
    const cpuMs =
      children === undefined || cpuStart === undefined
        ? undefined
        : (children - cpuStart + (self.user + self.system) / 1000) / runs;
    await recorder.close();
    return {
      files: Number(git(root, "ls-files", "-z").split("\0").length - 1),
      stats: timingStats(times),
      ...(cpuMs === undefined ? {} : { cpuMs }),
      firstMs: first.elapsed,
    };
  } finally {
    await session.close();
  }
}

/** Bytes under a folder. */
export async function folderBytes(path: string): Promise<number> {
  const info = await stat(path).catch(() => undefined);
  if (info === undefined) return 0;
  if (!info.isDirectory()) return info.size;
  let total = 0;
  for (const name of await readdir(path)) total += await folderBytes(join(path, name));
  return total;
}

/** What a scripted session did to the store. */
export interface StoreGrowth {
  turns: number;
  /** Bytes of new content the checkpointed changes wrote (each change's size after; a deletion counts its size before). */
  changedBytes: number;
  /** Growth of the store's objects, and of the whole store (the session's index included), after the first snapshot. */
  objectBytes: number;
  storeBytes: number;
}

/** The scripted turns: edits, new files, deletions and multi-file commands over the workspace's files. */
async function scriptedChange(root: string, files: readonly string[], turn: number): Promise<void> {
  const pick = (offset: number) => join(root, files[(turn * 7 + offset) % files.length] as string);
  switch (turn % 5) {
    case 0: {
      const path = pick(0);
      const text = await readFile(path, "utf8").catch(() => "");
      await writeFile(path, text.replace(/\n/, `\n// turn ${turn}\n`));
      break;
    }
    case 1:
      await writeFile(join(root, `notes-${turn}.md`), `# notes of turn ${turn}\n${"- a point\n".repeat(40)}`);
      break;
    case 2:
      await rm(join(root, `notes-${turn - 1}.md`), { force: true });
      await writeFile(pick(1), `${await readFile(pick(1), "utf8").catch(() => "")}\n// appended ${turn}\n`);
      break;
    case 3:
      for (const offset of [2, 3, 4]) await writeFile(pick(offset), `// rewritten in turn ${turn}\n`);
      break;
    default:
      await writeFile(join(root, "generated.json"), JSON.stringify({ turn, items: Array(200).fill(turn) }));
  }
}

/** Runs `turns` scripted turns through the recorder and measures how much the store grew. */
export async function measureStoreGrowth(root: string, home: string, turns: number): Promise<StoreGrowth> {
  const session: Session = await openSession(join(home, `growth-${Date.now()}.jsonl`), {
    cwd: root,
    onWarning: () => {},
  });
  try {
    const recorder = new SessionCheckpoints({ session, pantoHome: home, cwd: root });
    await timedCall(recorder, root, async () => {});
    const store = storeDirectory(home, await realpath(root));
    const objectsBefore = await folderBytes(join(store, "git", "objects"));
    const storeBefore = await folderBytes(store);
    const files = git(root, "ls-files")
      .split("\n")
      .filter((path) => /\.(ts|md|json)$/.test(path));
    let changedBytes = 0;
    for (let turn = 0; turn < turns; turn++) {
      const { entry } = await timedCall(recorder, root, () => scriptedChange(root, files, turn));
      for (const file of entry?.files ?? []) changedBytes += file.after?.size ?? file.before?.size ?? 0;
    }
    await recorder.close();
    return {
      turns,
      changedBytes,
      objectBytes: (await folderBytes(join(store, "git", "objects"))) - objectsBefore,
      storeBytes: (await folderBytes(store)) - storeBefore,
    };
  } finally {
    await session.close();
  }
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(2)} MB` : `${(bytes / 1024).toFixed(1)} KB`;
}

function overheadLine(label: string, result: BashOverhead): string {
  const cpu = result.cpuMs === undefined ? "" : `, CPU ${result.cpuMs.toFixed(1)} ms a call (panto and git)`;
  return `${label} (${result.files} files): median ${result.stats.medianMs.toFixed(1)} ms (${result.stats.minMs.toFixed(1)}-${result.stats.maxMs.toFixed(1)})${cpu}; first snapshot ${result.firstMs.toFixed(0)} ms`;
}

/**
 * `npm run bench`'s checkpoint figures: a bash call's checkpoint overhead in a copy of this
 * repository (`source`) and in a 30,000-file project, and the store's growth over a scripted
 * 100-turn session. Works in `dir`, removed afterwards.
 */
export async function printCheckpointBenchmark(
  source: string,
  dir: string,
  options: { runs: number },
): Promise<void> {
  const root = join(dir, `checkpoints-${process.pid}`);
  try {
    const home = join(root, "home");
    await mkdir(home, { recursive: true });
    console.log(
      `\nCheckpoints: overhead of one bash call (snapshot before and after), ${options.runs} calls each changing a file`,
    );
    const here = join(root, "repository");
    await copyTrackedFiles(source, here);
    console.log(overheadLine("this repository", await measureBashOverhead(here, home, options.runs)));
    const big = join(root, "synthetic");
    await syntheticProject(big, 30_000);
    console.log(overheadLine("30,000 files", await measureBashOverhead(big, home, options.runs)));
    const unwatched = await measureBashOverhead(big, home, options.runs, { watch: false });
    console.log(overheadLine("30,000 files, no folder watch (every file compared each time)", unwatched));
    const scripted = join(root, "scripted");
    await copyTrackedFiles(source, scripted);
    const growth = await measureStoreGrowth(scripted, home, 100);
    console.log(
      `store growth over a scripted ${growth.turns}-turn session: changed ${formatBytes(growth.changedBytes)}, ` +
        `objects +${formatBytes(growth.objectBytes)} (x${(growth.objectBytes / growth.changedBytes).toFixed(2)}), ` +
        `whole store +${formatBytes(growth.storeBytes)} (x${(growth.storeBytes / growth.changedBytes).toFixed(2)})`,
    );
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
