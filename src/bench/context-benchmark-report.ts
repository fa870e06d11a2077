import {
  CONTEXT_MODES,
  CONTEXT_WINDOW,
  type ContextFigures,
  type ContextMode,
  DEFAULT_CONTEXT_MODES,
  MODEL_TIME,
  PRICED_MODEL,
  PRICES,
  runContextBenchmark,
} from "./context-benchmark.js";
import { timingStats } from "./timing-stats.js";

/**
 * `npm run bench -- --only=context`: the context benchmark's table, a row per mode as it finishes.
 * `--modes=v1,clearing,prepared,cold,preparation` picks the modes (default the first four;
 * "preparation" is preparation without clearing), `--turns=N` the session's
 * length (default 200), `--seed=N` the session (default 34).
 */
export async function printContextBenchmark(argv: readonly string[]): Promise<void> {
  const modes = selectedModes(argv);
  const turns = numberFlag(argv, "--turns=", 200);
  const seed = numberFlag(argv, "--seed=", 34);
  console.log(
    `\nContext: one ${turns}-turn tool-heavy session (seed ${seed}; bash/read outputs of 0.5k-20k tokens; user pauses of 10 s-2.5 min, one in 7 of 6-30 min, simulated) through the real run and Anthropic adapter, against a fake server with a ${CONTEXT_WINDOW / 1000}k window and a modelled prompt cache (5-minute lifetime). Priced as ${PRICED_MODEL}: input $${PRICES.input}/MTok, cache write $${PRICES.cacheWrite}, cache read $${PRICES.cacheRead}, output $${PRICES.output}.`,
  );
  console.log(
    `The user's wait adds the model's time as modelled (not waited for): ${MODEL_TIME.BASE_MS} ms per answer, ${MODEL_TIME.PREFILL_TOKENS_PER_S.toLocaleString("en-US")} uncached prompt tokens/s (cache reads 10x faster), ${MODEL_TIME.OUTPUT_TOKENS_PER_S} output tokens/s, ${MODEL_TIME.REJECTION_MS} ms per rejection.`,
  );
  console.log(
    [
      "mode".padEnd(30),
      "prompt tok".padStart(12),
      "input".padStart(10),
      "cache write".padStart(12),
      "cache read".padStart(12),
      "output".padStart(9),
      "cost $".padStart(8),
      "compact".padStart(8),
      "summ req".padStart(9),
      "overflow turns: wait s, median (max)".padStart(38),
      "clearings".padStart(10),
      "rewrites/clearing".padStart(18),
    ].join(""),
  );
  let baseline: ContextFigures | undefined;
  await runContextBenchmark({
    modes,
    shape: { turns, seed },
    onFigures: (figures) => {
      console.log(row(figures));
      if (figures.mode.id === "v1") baseline = figures;
      else if (baseline !== undefined)
        console.log(`  ${versusV1(figures.costUsd, baseline.costUsd)} (goal: at least 40% lower)`);
      console.log(details(figures));
    },
  });
}

/** "cost 38.0% lower than v1 alone", or "higher" when it is. */
function versusV1(cost: number, v1Cost: number): string {
  const change = 100 * (1 - cost / v1Cost);
  return `cost ${Math.abs(change).toFixed(1)}% ${change >= 0 ? "lower" : "higher"} than v1 alone`;
}

function row(figures: ContextFigures): string {
  const tokens = (value: number) => value.toLocaleString("en-US");
  const wait = figures.overflowTurnWait;
  const waitText =
    wait === undefined
      ? "none"
      : `${wait.runs} turns: ${(wait.medianMs / 1000).toFixed(1)} (${(wait.maxMs / 1000).toFixed(1)})`;
  // Per clearing panto reported: a clearing whose stubs changed the prompt twice shows as 2.
  const clearings = figures.clearings > 0 ? figures.clearings : figures.clearingRequests;
  const perClearing = clearings === 0 ? "-" : (figures.clearingRewrites / clearings).toFixed(2);
  return [
    figures.mode.name.padEnd(30),
    tokens(figures.promptTokens).padStart(12),
    tokens(figures.inputTokens).padStart(10),
    tokens(figures.cacheWriteTokens).padStart(12),
    tokens(figures.cacheReadTokens).padStart(12),
    tokens(figures.outputTokens).padStart(9),
    figures.costUsd.toFixed(2).padStart(8),
    String(figures.compactions).padStart(8),
    String(figures.summaryRequests).padStart(9),
    waitText.padStart(38),
    String(figures.clearings).padStart(10),
    perClearing.padStart(18),
  ].join("");
}

function details(figures: ContextFigures): string {
  const outputs = timingStats(figures.toolOutputTokens);
  return [
    `  ${figures.agentRequests} agent requests, ${figures.overflows} rejected over the window;`,
    `summary requests cost $${figures.summaryCostUsd.toFixed(2)};`,
    `${figures.clearingRequests} requests changed an earlier tool result; ${figures.backgroundSummaryRequests} summary requests between turns (prepared);`,
    `cache rewrites ${figures.rewrites} (${figures.clearingRewrites} at clearings), prefixes expired after a pause ${figures.expiredPrefixes};`,
    `of the cache writes, ${figures.longCacheWriteTokens.toLocaleString("en-US")} tokens for the one-hour cache (2x input);`,
    `${figures.toolOutputTokens.length} tool outputs of ${outputs.minMs}-${outputs.maxMs} tokens (median ${outputs.medianMs});`,
    ...(figures.overflowDelay === undefined
      ? []
      : [
          `of the wait in overflow turns, the overflow's own (rejected requests and ${figures.overflowSummaryRequests} summary requests in them, modelled): ${(figures.overflowDelay.medianMs / 1000).toFixed(1)} s (${(figures.overflowDelay.maxMs / 1000).toFixed(1)} s);`,
        ]),
    ...(figures.coldCompactionDelay === undefined
      ? []
      : [
          `${figures.coldCompactions} compactions when the cache was cold; what their summary requests added to the user's wait in those turns (modelled): ${(figures.coldCompactionDelay.medianMs / 1000).toFixed(1)} s (${(figures.coldCompactionDelay.maxMs / 1000).toFixed(1)} s);`,
        ]),
    ...(figures.overflowTurnOwn === undefined
      ? []
      : [
          `panto's own time in overflow turns (real wall ms, the fake answering at once): ${figures.overflowTurnOwn.medianMs.toFixed(0)} (${figures.overflowTurnOwn.maxMs.toFixed(0)});`,
        ]),
    `wall ${(figures.wallMs / 1000).toFixed(1)} s`,
    ...(figures.note === undefined ? [] : [`(${figures.note})`]),
  ].join(" ");
}

function selectedModes(argv: readonly string[]): readonly ContextMode[] {
  const flag = argv.find((arg) => arg.startsWith("--modes="));
  if (flag === undefined)
    return CONTEXT_MODES.filter((mode) => (DEFAULT_CONTEXT_MODES as readonly string[]).includes(mode.id));
  const ids = flag.slice("--modes=".length).split(",");
  const unknown = ids.filter((id) => !CONTEXT_MODES.some((mode) => mode.id === id));
  if (unknown.length > 0)
    throw new Error(
      `unknown mode ${unknown.join(", ")} in --modes (known: ${CONTEXT_MODES.map((mode) => mode.id).join(", ")})`,
    );
  return CONTEXT_MODES.filter((mode) => ids.includes(mode.id));
}

function numberFlag(argv: readonly string[], prefix: string, fallback: number): number {
  const flag = argv.find((arg) => arg.startsWith(prefix));
  if (flag === undefined) return fallback;
  const value = Number(flag.slice(prefix.length));
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`${prefix.slice(0, -1)} must be a positive integer, got "${flag}"`);
  return value;
}
