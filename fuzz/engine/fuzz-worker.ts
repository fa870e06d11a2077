import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { parentPort, workerData } from "node:worker_threads";
import { CoverageProbe } from "./coverage-probe.js";
import { describeFailure, type Failure } from "./find-signature.js";
import type { FuzzTarget } from "./fuzz-target.js";
import { InputSlot } from "./input-slot.js";
import { minimiseInput } from "./minimise-input.js";
import { Mutator } from "./mutate.js";
import { Random } from "./random.js";
import type { WorkerMessage, WorkerSetup } from "./worker-protocol.js";

const DEFAULT_MAX_LENGTH = 8192;
const STATS_EVERY_MS = 1000;

const setup = workerData as WorkerSetup;
const port = parentPort;
if (port === null) throw new Error("fuzz-worker runs in a worker thread");
const send = (message: WorkerMessage): void => port.postMessage(message);

const slot = new InputSlot(setup.slot);
const targetUrl = pathToFileURL(setup.targetFile).href;
const { target } = (await import(targetUrl)) as { target: FuzzTarget };
const probe = new CoverageProbe((url) => url === targetUrl);
const reported = new Set<string>();
let execs = 0;

/** Runs one input; returns the failure it caused, if any. */
async function execute(input: Buffer): Promise<Failure | undefined> {
  slot.begin(input);
  execs++;
  try {
    const running = target.run(input);
    if (running instanceof Promise) await running;
    return undefined;
  } catch (error) {
    return describeFailure(error, targetUrl);
  } finally {
    slot.end();
  }
}

function report(failure: Failure, input: Buffer): void {
  if (reported.has(failure.signature)) return;
  reported.add(failure.signature);
  send({ type: "find", ...failure, input });
}

function sha1(input: Buffer): string {
  return createHash("sha1").update(input).digest("hex");
}

/** The files of a seed folder in name order; a file given instead of a folder is itself. */
function inputFiles(path: string): string[] {
  try {
    if (statSync(path).isFile()) return [path];
    return readdirSync(path)
      .sort()
      .map((name) => join(path, name));
  } catch {
    return [];
  }
}

function readSeeds(): Buffer[] {
  const skip = new Set(setup.skip);
  const seeds: Buffer[] = [];
  for (const dir of setup.seedDirs) {
    for (const file of inputFiles(dir)) {
      const input = readFileSync(file);
      if (!skip.has(sha1(input))) seeds.push(input);
    }
  }
  return seeds;
}

async function seedCorpus(corpus: Buffer[]): Promise<void> {
  const seeds = readSeeds();
  probe.take();
  for (const input of seeds) {
    const failure = await execute(input);
    const fresh = probe.take();
    if (failure !== undefined) report(failure, input);
    else if (fresh > 0 || corpus.length === 0) corpus.push(input);
  }
  send({ type: "seeded", inputs: seeds.length });
}

function saveToCorpus(input: Buffer): void {
  if (setup.corpusOut === undefined) return;
  mkdirSync(setup.corpusOut, { recursive: true });
  writeFileSync(join(setup.corpusOut, sha1(input)), input);
}

function sendStats(corpus: readonly Buffer[]): void {
  send({
    type: "stats",
    execs,
    features: probe.features,
    blocks: probe.blocksCovered,
    corpus: corpus.length,
  });
}

/** Parents are drawn with a lean to recent (deeper) and short (cheaper) inputs. */
function pickParent(random: Random, corpus: readonly Buffer[]): Buffer {
  const a = corpus[random.below(corpus.length)] as Buffer;
  const recent = corpus[corpus.length - 1 - random.below(Math.min(corpus.length, 16))] as Buffer;
  const b = random.oneIn(3) ? recent : (corpus[random.below(corpus.length)] as Buffer);
  return a.length <= b.length ? a : b;
}

async function fuzz(corpus: Buffer[]): Promise<void> {
  const random = new Random(setup.seed);
  const mutator = new Mutator(random, target.dictionary ?? [], target.maxLength ?? DEFAULT_MAX_LENGTH);
  if (corpus.length === 0) corpus.push(Buffer.alloc(0));
  let lastStats = Date.now();
  while (!slot.stopRequested) {
    const parent = pickParent(random, corpus);
    const input = mutator.mutate(parent, () => corpus[random.below(corpus.length)] as Buffer);
    const failure = await execute(input);
    const fresh = probe.take();
    if (failure !== undefined) report(failure, input);
    else if (fresh > 0) {
      corpus.push(input);
      saveToCorpus(input);
    }
    if (Date.now() - lastStats >= STATS_EVERY_MS) {
      sendStats(corpus);
      lastStats = Date.now();
    }
  }
}

if (setup.minimise !== undefined) {
  const result = await minimiseInput(Buffer.from(setup.minimise), async (input) => execute(input));
  send({ type: "minimised", input: result.input, signature: result.signature });
} else {
  const corpus: Buffer[] = [];
  await seedCorpus(corpus);
  if (setup.fuzz) await fuzz(corpus);
  sendStats(corpus);
}
send({ type: "done" });
