// A real model in the loop: starts llama-server with a small context window, continues a prepared
// coding session through the built CLI until the server rejects a request as too large, lets panto
// compact and retry, then runs `panto fidelity --probe --baseline` on the result, once with restored
// facts on and once off, and prints the figures. Not part of `npm test`; run scripts/real-model/setup.sh
// first. Usage: node scripts/real-model/run.mjs [CACHE]   (CACHE as for setup.sh)
// Environment: REAL_MODEL=gemma|smollm (default gemma), REAL_MODEL_CTX (default 4096, the window the
// session overflows), REAL_MODEL_PROBE_CTX (default 16384, the window probes run with, so the full
// context fits for the baseline), REAL_MODEL_PORT (default 18080), REAL_MODEL_DEADLINE_S (default 900),
// REAL_MODEL_SERVER (a llama-server built elsewhere; default <CACHE>/llama-build/bin/llama-server),
// REAL_MODEL_RESTORE (on, off or on,off: which runs to make), REAL_MODEL_MAX_OUTPUT (default 300
// tokens per answer and summary), REAL_MODEL_PROBE_OUTPUT (default 600 tokens per probe answer).
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { homedir, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const here = fileURLToPath(new URL(".", import.meta.url));
const cli = join(here, "../../dist/cli/main.js");
const cache =
  process.argv[2] ?? process.env.PANTO_REAL_MODEL_CACHE ?? join(homedir(), ".cache/panto-real-model");
const models = {
  gemma: { file: "gemma-3-270m-q4_k_m.gguf", id: "llamacpp/gemma-3-270m-q4_k_m" },
  smollm: { file: "SmolLM2-135M-Instruct.Q4_1.gguf", id: "llamacpp/smollm2-135m-instruct-q4_1" },
};
const chosen = models[process.env.REAL_MODEL ?? "gemma"];
const ctx = Number(process.env.REAL_MODEL_CTX ?? 4096);
const probeCtx = Number(process.env.REAL_MODEL_PROBE_CTX ?? 16384);
const port = Number(process.env.REAL_MODEL_PORT ?? 18080);
/** Answer and summary length while the session runs, and probe answer length. */
const maxOutput = Number(process.env.REAL_MODEL_MAX_OUTPUT ?? 300);
const probeOutput = Number(process.env.REAL_MODEL_PROBE_OUTPUT ?? 600);
/** Which runs to make: restored facts on, off, or both (default). */
const modes = (process.env.REAL_MODEL_RESTORE ?? "on,off").split(",").map((mode) => mode.trim() === "on");
const server = process.env.REAL_MODEL_SERVER ?? join(cache, "llama-build/bin/llama-server");
const modelPath = join(cache, "models", chosen?.file ?? "");
const PROMPTS = [
  "What did we change in the date module, and why? Answer in three sentences.",
  "Which files did we touch so far? Answer briefly.",
  "Is there anything left to check before we commit? Answer briefly.",
  "Write a one-paragraph commit message for this work.",
  "What could break for callers of formatDate? Answer briefly.",
  "Summarise the test results we saw. Answer briefly.",
  "What would you review next? Answer briefly.",
  "Give the commit message again, shorter.",
];

const started = Date.now();
const deadline = setTimeout(
  () => {
    console.error(`real-model: stopped after ${process.env.REAL_MODEL_DEADLINE_S ?? 900} s`);
    stopServer();
    process.exit(1);
  },
  Number(process.env.REAL_MODEL_DEADLINE_S ?? 900) * 1000,
);
deadline.unref();
let running;

function log(text) {
  console.log(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${text}`);
}

async function startServer(contextSize) {
  await mkdir(join(cache, "logs"), { recursive: true });
  const logFile = join(cache, "logs", `llama-server-${contextSize}.log`);
  const { openSync } = await import("node:fs");
  const out = openSync(logFile, "w");
  running = spawn(
    server,
    [
      "-m",
      modelPath,
      "-c",
      String(contextSize),
      "-np",
      "1",
      "-t",
      "2",
      "--host",
      "127.0.0.1",
      "--port",
      String(port),
      "--jinja",
    ],
    { stdio: ["ignore", out, out] },
  );
  for (let waited = 0; waited < 180; waited++) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    if (running.exitCode !== null)
      throw new Error(`llama-server exited (${running.exitCode}); see ${logFile}`);
    const health = await fetch(`http://127.0.0.1:${port}/health`).catch(() => undefined);
    if (health?.ok) return;
  }
  throw new Error(`llama-server did not become healthy; see ${logFile}`);
}

function stopServer() {
  if (running !== undefined && running.exitCode === null) running.kill("SIGTERM");
}

async function stopAndWait() {
  if (running === undefined || running.exitCode !== null) return;
  const exited = new Promise((resolve) => running.once("exit", resolve));
  stopServer();
  await exited;
}

function panto(args, where) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], { cwd: where.project, env: where.env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.stdin.end();
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

async function writeConfig(where, restoreFacts, maxOutputTokens) {
  const config = {
    model: chosen.id,
    keep_verbatim_tokens: 700,
    restore_facts: restoreFacts,
    max_output_tokens: maxOutputTokens,
  };
  await writeFile(join(where.home, "config.json"), JSON.stringify(config, null, 2));
}

/** One session: prepared turns, then prompts through the CLI until an overflow compaction happened. */
async function continueUntilCompaction(restoreFacts) {
  const root = await mkdtemp(join(tmpdir(), "panto-real-model-"));
  const where = { root, home: join(root, "home"), project: join(root, "project") };
  await mkdir(join(where.project, ".git"), { recursive: true });
  await mkdir(where.home, { recursive: true });
  where.env = {
    PATH: process.env.PATH,
    HOME: root,
    PANTO_HOME: where.home,
    NO_COLOR: "1",
    LLAMACPP_BASE_URL: `http://127.0.0.1:${port}`,
  };
  await writeConfig(where, restoreFacts, maxOutput);
  execFileSync(process.execPath, [join(here, "prepare-session.mjs"), where.home, where.project]);
  for (const [index, prompt] of PROMPTS.entries()) {
    const run = await panto(["-c", "--json", "-p", prompt], where);
    const events = run.stdout
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line));
    const compaction = events.find((event) => event.type === "compaction");
    const error = events.find((event) => event.type === "error");
    log(
      `restore_facts=${restoreFacts} prompt ${index + 1}: exit ${run.code}${compaction ? `, compacted (${compaction.trigger}, ${compaction.turns_summarised} turns summarised, ${compaction.tokens_before} -> ${compaction.tokens_after} tokens, ${compaction.restored?.length ?? 0} facts restored, ${compaction.duration_ms} ms)` : ""}${error ? `, error ${error.code}: ${error.message}` : ""}`,
    );
    if (compaction !== undefined) return { where, compaction, prompts: index + 1, retried: run.code === 0 };
  }
  throw new Error("no compaction after every prompt: make the prepared session larger or the window smaller");
}

function fidelityRow(label, report) {
  const { totals } = report;
  const share = (count) => (count === null ? "n/a" : `${count}/${totals.facts}`);
  return `| ${label} | ${totals.facts} | ${share(totals.in_summary)} | ${share(totals.in_block)} | ${share(totals.answered)} | ${share(totals.answered_recall)} | ${share(totals.answered_full)} |`;
}

async function main() {
  for (const needed of [cli, server, modelPath])
    if (!existsSync(needed))
      throw new Error(`missing ${needed}: run npm run build and scripts/real-model/setup.sh`);
  // llama-server prints its version and build on stderr.
  const printed = spawnSync(server, ["--version"], { encoding: "utf8" });
  const version =
    `${printed.stdout}${printed.stderr}`.split("\n").find((line) => line.startsWith("version")) ??
    "version unknown";
  const loadBefore = loadavg()
    .map((value) => value.toFixed(2))
    .join(" ");
  log(`model ${chosen.file}, ${version}, window ${ctx} (probes ${probeCtx}), load ${loadBefore}`);
  await startServer(ctx);
  const sessions = [];
  for (const restoreFacts of modes)
    sessions.push({ restoreFacts, ...(await continueUntilCompaction(restoreFacts)) });
  await stopAndWait();
  await startServer(probeCtx);
  const rows = [];
  for (const session of sessions) {
    await writeConfig(session.where, session.restoreFacts, probeOutput);
    const run = await panto(["fidelity", "--probe", "--baseline", "--json"], session.where);
    if (run.code !== 0) throw new Error(`panto fidelity exited ${run.code}: ${run.stderr}`);
    const report = JSON.parse(run.stdout);
    log(
      `fidelity restore_facts=${session.restoreFacts}: ${JSON.stringify(report.totals)}, ${report.requests} requests`,
    );
    const lost = report.facts.filter((fact) => !fact.in_block).map((fact) => `${fact.kind}: ${fact.text}`);
    if (lost.length > 0) log(`  lost from the block: ${lost.join(" | ")}`);
    rows.push(fidelityRow(`restore_facts ${session.restoreFacts ? "on" : "off"}`, report));
    const text = await panto(["fidelity"], session.where);
    console.log(text.stdout);
  }
  await stopAndWait();
  for (const session of sessions) await rm(session.where.root, { recursive: true, force: true });
  const loadAfter = loadavg()
    .map((value) => value.toFixed(2))
    .join(" ");
  console.log(
    `\nModel: ${chosen.file}; llama-server ${version}; window ${ctx} tokens (probes: ${probeCtx});`,
  );
  console.log(
    `load average before ${loadBefore}, after ${loadAfter}; ${((Date.now() - started) / 1000).toFixed(0)} s in all\n`,
  );
  console.log(
    "| run | facts | in summary | in block | answered (compacted) | answered with recall | answered (full) |",
  );
  console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
  for (const row of rows) console.log(row);
}

try {
  await main();
} catch (error) {
  console.error(`real-model: ${error instanceof Error ? error.message : String(error)}`);
  stopServer();
  process.exitCode = 1;
}
