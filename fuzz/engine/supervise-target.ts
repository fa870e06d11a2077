import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { InputSlot } from "./input-slot.js";
import type { FindKind, WorkerMessage, WorkerSetup } from "./worker-protocol.js";

/** One failing input, as reported at the end of a run. */
export interface Find {
  kind: FindKind;
  signature: string;
  message: string;
  stack: string;
  input: Buffer;
}

/** The figures of one target's run. */
export interface TargetRun {
  target: string;
  execs: number;
  /** Coverage features (block ranges by hit-count class, branches not taken included). */
  features: number;
  /** Block ranges of the code under test ever executed. */
  blocks: number;
  corpus: number;
  seeds: number;
  finds: Find[];
  cpuSeconds: number;
  wallSeconds: number;
}

export interface SuperviseOptions {
  target: string;
  targetFile: string;
  workerFile: string;
  seedDirs: string[];
  /** A campaign's folder: its corpus grows in `corpus/`, finds land in `finds/`. */
  workDir: string | undefined;
  fuzz: boolean;
  /** Stop fuzzing after this much wall-clock time... */
  seconds: number | undefined;
  /** ...or this much CPU time of this process (all threads). */
  cpuSeconds: number | undefined;
  timeoutMs: number;
  maxLength: number;
  seed: number;
  progress: (line: string) => void;
}

const WATCH_EVERY_MS = 50;
const MAX_RESTARTS = 100;
/** The worker's heap limit: an input that needs more is a find (out of memory), not a dead machine. */
const WORKER_HEAP_MB = 768;

/**
 * Runs one target in a worker thread and watches it: an input that runs past the time limit is a
 * hang (the worker is stopped from outside and started again, skipping that input), a worker that
 * dies is a crash or out of memory; both are finds with the input that caused them. Figures come
 * from the worker's reports.
 */
export function superviseTarget(options: SuperviseOptions): Promise<TargetRun> {
  const started = Date.now();
  const cpuAtStart = process.cpuUsage();
  const run: TargetRun = {
    target: options.target,
    execs: 0,
    features: 0,
    blocks: 0,
    corpus: 0,
    seeds: 0,
    finds: [],
    cpuSeconds: 0,
    wallSeconds: 0,
  };
  const signatures = new Set<string>();
  const skip: string[] = [];
  let execsBefore = 0;
  let restarts = 0;
  let lastProgress = Date.now();

  const cpuSeconds = (): number => {
    const used = process.cpuUsage(cpuAtStart);
    return (used.user + used.system) / 1e6;
  };
  const record = (find: Find): void => {
    if (signatures.has(find.signature)) return;
    signatures.add(find.signature);
    run.finds.push(find);
    saveFind(options.workDir, find);
    options.progress(`${options.target}: ${find.kind}: ${find.signature}`);
  };

  return new Promise((resolve, reject) => {
    const start = (): void => {
      const slot = InputSlot.create(Math.max(options.maxLength, 1 << 20));
      const setup: WorkerSetup = {
        targetFile: options.targetFile,
        seedDirs: [
          ...options.seedDirs,
          ...(options.workDir === undefined ? [] : [join(options.workDir, "corpus")]),
        ],
        corpusOut: options.workDir === undefined ? undefined : join(options.workDir, "corpus"),
        skip,
        fuzz: options.fuzz,
        seed: options.seed + restarts,
        slot: slot.buffer,
      };
      const worker = new Worker(options.workerFile, {
        workerData: setup,
        resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
      });
      let finished = false;
      let fuzzing = false;
      const finish = (): void => {
        finished = true;
        clearInterval(watch);
      };
      const restartAfter = (kind: FindKind, message: string, stack: string): void => {
        const input = slot.lastInput();
        skip.push(createHash("sha1").update(input).digest("hex"));
        record({
          kind,
          signature: `${kind} ${kind === "timeout" ? "" : message.split("\n")[0]}`,
          message,
          stack,
          input,
        });
        execsBefore = run.execs;
        if (++restarts > MAX_RESTARTS) {
          done();
          return;
        }
        start();
      };
      const done = (): void => {
        run.cpuSeconds = cpuSeconds();
        run.wallSeconds = (Date.now() - started) / 1000;
        resolve(run);
      };
      const watch = setInterval(() => {
        const now = Date.now();
        const elapsed = slot.runningFor(now);
        if (elapsed !== undefined && elapsed > options.timeoutMs && !finished) {
          finish();
          void worker
            .terminate()
            .then(() => restartAfter("timeout", `input still running after ${options.timeoutMs} ms`, ""));
          return;
        }
        const overBudget =
          (options.seconds !== undefined && fuzzing && now - started > options.seconds * 1000) ||
          (options.cpuSeconds !== undefined && cpuSeconds() > options.cpuSeconds);
        if (overBudget) slot.requestStop();
        if (now - lastProgress >= 10_000) {
          lastProgress = now;
          options.progress(progressLine(run, cpuSeconds()));
        }
      }, WATCH_EVERY_MS);
      worker.on("message", (message: WorkerMessage) => {
        if (message.type === "stats") {
          run.execs = execsBefore + message.execs;
          run.features = Math.max(run.features, message.features);
          run.blocks = Math.max(run.blocks, message.blocks);
          run.corpus = Math.max(run.corpus, message.corpus);
        } else if (message.type === "seeded") {
          run.seeds = Math.max(run.seeds, message.inputs);
          fuzzing = true;
        } else if (message.type === "find") {
          record({ ...message, input: Buffer.from(message.input) });
        } else if (message.type === "done") {
          finish();
          void worker.terminate().then(done);
        }
      });
      worker.on("error", (error: Error & { code?: string }) => {
        if (finished) return;
        finish();
        const kind: FindKind = error.code === "ERR_WORKER_OUT_OF_MEMORY" ? "out-of-memory" : "crash";
        if (restarts === 0 && run.execs === 0 && kind === "crash" && !fuzzing) reject(error);
        else restartAfter(kind, error.message, error.stack ?? "");
      });
    };
    start();
  });
}

function progressLine(run: TargetRun, cpu: number): string {
  return `${run.target}: ${run.execs} inputs, ${run.features} features, ${run.blocks} blocks, corpus ${run.corpus}, ${run.finds.length} finds, ${cpu.toFixed(0)} CPU s`;
}

function saveFind(workDir: string | undefined, find: Find): void {
  if (workDir === undefined) return;
  const dir = join(workDir, "finds");
  mkdirSync(dir, { recursive: true });
  const name = `${find.kind}-${createHash("sha1").update(find.input).digest("hex").slice(0, 12)}`;
  writeFileSync(join(dir, name), find.input);
  writeFileSync(join(dir, `${name}.txt`), `${find.signature}\n\n${find.message}\n\n${find.stack}\n`);
}
