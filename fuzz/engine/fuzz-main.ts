import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { FUZZ_USAGE, type FuzzOptions, parseFuzzOptions } from "./fuzz-options.js";
import type { FuzzTarget } from "./fuzz-target.js";
import { minimiseInWorker } from "./minimise-in-worker.js";
import { superviseTarget, type TargetRun } from "./supervise-target.js";

/** Where the bootstrap (`fuzz/run-fuzz.mjs`) put the bundles, and which targets exist. */
export interface FuzzBuild {
  /** The repository root: seed corpora are read from `fuzz/corpus/<target>/` below it. */
  root: string;
  workerFile: string;
  /** Target name (its file name in fuzz/targets/) -> its bundle. */
  targets: Map<string, string>;
}

const DEFAULT_SECONDS = 60;
const SMOKE_SECONDS = 3;
/** The smoke run's fixed seed: the same inputs every time, so CI fails the same way twice. */
const SMOKE_SEED = 20261204;
const DEFAULT_TIMEOUT_MS = 2000;
const DEFAULT_MAX_LENGTH = 8192;

/** `npm run fuzz`: returns the exit status (0 nothing found, 1 finds, 2 usage). */
export async function fuzzMain(build: FuzzBuild, argv: readonly string[]): Promise<number> {
  let options: FuzzOptions;
  try {
    options = parseFuzzOptions(argv);
  } catch (error) {
    process.stderr.write(`fuzz: ${(error as Error).message}\n${FUZZ_USAGE}\n`);
    return 2;
  }
  if (options.list) return listTargets(build);
  const unknown = options.targets.filter((name) => !build.targets.has(name));
  if (unknown.length > 0) {
    process.stderr.write(
      `fuzz: unknown target ${unknown.join(", ")}; targets: ${[...build.targets.keys()].join(", ")}\n`,
    );
    return 2;
  }
  const names = options.targets.length > 0 ? options.targets : [...build.targets.keys()];
  if (options.minimise !== undefined) return minimise(build, names[0] as string, options.minimise);
  let finds = 0;
  for (const name of names) {
    const run = await runTarget(build, name, options);
    finds += run.finds.length;
    report(run, options);
  }
  return finds === 0 ? 0 : 1;
}

async function targetSettings(
  file: string,
): Promise<{ timeoutMs: number; maxLength: number; description: string }> {
  const { target } = (await import(pathToFileURL(file).href)) as { target: FuzzTarget };
  return {
    timeoutMs: target.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxLength: target.maxLength ?? DEFAULT_MAX_LENGTH,
    description: target.description,
  };
}

async function listTargets(build: FuzzBuild): Promise<number> {
  for (const [name, file] of build.targets) {
    const { description } = await targetSettings(file);
    process.stdout.write(`${name}\n  ${description}\n`);
  }
  return 0;
}

async function runTarget(build: FuzzBuild, name: string, options: FuzzOptions): Promise<TargetRun> {
  const file = build.targets.get(name) as string;
  const settings = await targetSettings(file);
  const reproducing = options.run.length > 0;
  const budgetGiven = options.seconds !== undefined || options.cpuSeconds !== undefined;
  return superviseTarget({
    target: name,
    targetFile: file,
    workerFile: build.workerFile,
    seedDirs: reproducing ? options.run : [join(build.root, "fuzz", "corpus", name)],
    workDir:
      options.smoke || reproducing || options.work === undefined ? undefined : join(options.work, name),
    fuzz: !reproducing,
    seconds: budgetGiven ? options.seconds : options.smoke ? SMOKE_SECONDS : DEFAULT_SECONDS,
    cpuSeconds: options.cpuSeconds,
    timeoutMs: settings.timeoutMs,
    maxLength: settings.maxLength,
    seed: options.smoke ? SMOKE_SEED : options.seed,
    progress: (line) => process.stderr.write(`${line}\n`),
  });
}

function report(run: TargetRun, options: FuzzOptions): void {
  const rate = run.wallSeconds > 0 ? Math.round(run.execs / run.wallSeconds) : 0;
  process.stderr.write(
    `${run.target}: ${run.seeds} seeds, ${run.execs} inputs (${rate}/s), ${run.features} features, ${run.blocks} blocks, corpus ${run.corpus}, ${run.cpuSeconds.toFixed(1)} CPU s, ${run.finds.length} finds\n`,
  );
  for (const find of run.finds) {
    process.stderr.write(
      `  ${find.kind}: ${find.message.split("\n")[0]}\n  input (${find.input.length} bytes): ${JSON.stringify(find.input.toString("utf8").slice(0, 2000))}\n${indent(find.stack)}\n`,
    );
  }
  if (options.json) {
    const { finds, ...figures } = run;
    const summary = {
      ...figures,
      finds: finds.map((find) => ({ kind: find.kind, signature: find.signature })),
    };
    process.stdout.write(`${JSON.stringify(summary)}\n`);
  }
}

function indent(text: string): string {
  return text
    .split("\n")
    .slice(0, 12)
    .map((line) => `    ${line}`)
    .join("\n");
}

async function minimise(build: FuzzBuild, name: string, file: string): Promise<number> {
  const { readFileSync } = await import("node:fs");
  const input = readFileSync(file);
  const result = await minimiseInWorker(build.workerFile, build.targets.get(name) as string, input);
  writeFileSync(`${file}.min`, result.input);
  process.stderr.write(
    `${name}: ${input.length} -> ${result.input.length} bytes, ${result.signature}; written to ${file}.min\n`,
  );
  return 0;
}
