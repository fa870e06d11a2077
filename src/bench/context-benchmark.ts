import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RunContext } from "../runtime/run-context.js";
import { type RunEvent, RunEvents } from "../runtime/run-events.js";
import { startRun } from "../runtime/start-run.js";
import {
  type CachedExchange,
  type CachingAnthropicServer,
  startCachingAnthropicServer,
} from "../simulator/caching-anthropic-server.js";
import { PromptCacheModel } from "../simulator/prompt-cache-model.js";
import { installShiftedClock, type ShiftedClock } from "./shifted-clock.js";
import { type TimingStats, timingStats } from "./timing-stats.js";
import {
  planToolHeavySession,
  type ToolHeavyPlan,
  toolHeavyAnswer,
  turnPrompt,
  writeDataFile,
} from "./tool-heavy-session.js";

/**
 * The context benchmark (issue 34, "Measure"): one long tool-heavy session replayed through the real
 * run (startRun, the agent, the real tools and the real Anthropic adapter over HTTP) against a fake
 * Anthropic server that counts tokens, enforces a 200k window and models the prompt cache, once per
 * mode. A mode is only config keys: a key panto's config schema rejects fails the bench, so a
 * feature missing from the build can never show a figure.
 */
export interface ContextMode {
  /** Selects the mode with --modes=. */
  id: string;
  name: string;
  /**
   * Keys written into the project's .panto/config.json for this mode. With `prepare_compaction_at`,
   * a turn that ends near it is followed by a wait until panto's background work (preparing the
   * compaction) is done, as it would be while the user reads and types.
   */
  config: Record<string, unknown>;
}

export const CONTEXT_MODES: readonly ContextMode[] = [
  { id: "v1", name: "v1 alone", config: { clearing: { enabled: false } } },
  { id: "clearing", name: "clearing", config: { clearing: { enabled: true } } },
  {
    id: "prepared",
    name: "clearing + preparation",
    config: { clearing: { enabled: true }, prepare_compaction_at: 0.8 },
  },
  /**
   * Clearing, and a compaction at the first request after a pause longer than the cache lives
   * (config `compact_when_cold`), when the context is past 30% of the window: that request writes
   * the whole prompt to the cache again anyway. Its summary is written during the pause, once the
   * cache has gone cold (the run's timer, stood in for here as time is simulated).
   */
  {
    id: "cold",
    name: "clearing + compact when cold",
    config: { clearing: { enabled: true }, compact_when_cold: 0.3 },
  },
  /**
   * Not in the default set: with clearing, a session may never come near the wall, so this one
   * shows what a prepared compaction does at an overflow (issue 34: no wait when it covers it).
   */
  {
    id: "preparation",
    name: "preparation alone",
    config: { clearing: { enabled: false }, prepare_compaction_at: 0.8 },
  },
];

/** The modes `--only=context` runs without `--modes`: the three, and compaction when cold. */
export const DEFAULT_CONTEXT_MODES = ["v1", "clearing", "prepared", "cold"] as const;

/** The model the session runs as, and whose prices the cost is figured with. */
export const PRICED_MODEL = "anthropic/claude-sonnet-4-5";
/**
 * Dollars per million tokens: Claude Sonnet 4.5's list prices; cache writes 1.25x input for the
 * five-minute cache and 2x for the one-hour cache, reads 0.1x.
 */
export const PRICES = { input: 3, cacheWrite: 3.75, longCacheWrite: 6, cacheRead: 0.3, output: 15 } as const;
export const CONTEXT_WINDOW = 200_000;

/**
 * The model's time, which the fake server does not spend but the simulated clock does (so the
 * user's wait includes it, and the cache ages by it): a rejection takes REJECTION_MS; an answer
 * BASE_MS, plus its uncached prompt (input and cache writes) at PREFILL_TOKENS_PER_S, cache reads at
 * ten times that, and its output at OUTPUT_TOKENS_PER_S. Round figures of the order Claude Sonnet
 * shows, not measurements: they make a summary request's minute visible beside a retry's seconds.
 */
export const MODEL_TIME = {
  REJECTION_MS: 300,
  BASE_MS: 500,
  PREFILL_TOKENS_PER_S: 10_000,
  OUTPUT_TOKENS_PER_S: 60,
} as const;

export function modelTimeMs(exchange: CachedExchange): number {
  const uncached = exchange.inputTokens + exchange.cacheWriteTokens;
  const seconds =
    uncached / MODEL_TIME.PREFILL_TOKENS_PER_S +
    exchange.cacheReadTokens / (10 * MODEL_TIME.PREFILL_TOKENS_PER_S) +
    exchange.outputTokens / MODEL_TIME.OUTPUT_TOKENS_PER_S;
  return MODEL_TIME.BASE_MS + 1000 * seconds;
}

export interface ContextFigures {
  mode: ContextMode;
  turns: number;
  agentRequests: number;
  summaryRequests: number;
  /** Every prompt token the server answered (input + cache writes + cache reads), summaries included. */
  promptTokens: number;
  inputTokens: number;
  cacheWriteTokens: number;
  /** The part of the cache writes made for one-hour breakpoints (what clearing settled), priced at 2x input. */
  longCacheWriteTokens: number;
  cacheReadTokens: number;
  outputTokens: number;
  costUsd: number;
  /** The part of the cost that the summary requests (compactions, prepared or not) make. */
  summaryCostUsd: number;
  compactions: number;
  /** Requests the server rejected as over the window. */
  overflows: number;
  /**
   * The turns in which the server rejected a request as over the window: what the user waits,
   * panto's own time plus the modelled model time (MODEL_TIME), and panto's own (real wall) time alone.
   */
  overflowTurnWait: TimingStats | undefined;
  overflowTurnOwn: TimingStats | undefined;
  /**
   * Of the wait in each overflow turn, what the overflow itself added (modelled): the rejected
   * requests and the summary requests sent within the turn. The rest is the turn's own requests,
   * the retry among them. A compaction prepared ahead leaves only the rejection.
   */
  overflowDelay: TimingStats | undefined;
  /** Summary requests sent within overflow turns (the user waited on them). */
  overflowSummaryRequests: number;
  /** Compactions at the start of a turn after the cache went cold (config `compact_when_cold`). */
  coldCompactions: number;
  /**
   * In each turn with such a compaction, what its summary requests added to the user's wait
   * (modelled; none when it applied a summary prepared ahead).
   */
  coldCompactionDelay: TimingStats | undefined;
  /** Clearings panto reported (`context-cleared` events). */
  clearings: number;
  /** Requests that changed the content of an earlier tool result (a clearing, as the server sees it). */
  clearingRequests: number;
  /** Summary requests sent between turns (a compaction being prepared in the background). */
  backgroundSummaryRequests: number;
  /** Agent requests that changed a still-cached prefix (a cache rewrite), and those among them that were clearings. */
  rewrites: number;
  clearingRewrites: number;
  /** Agent requests whose previous prefix had expired (the user paused longer than the cache lives). */
  expiredPrefixes: number;
  /** Tokens (characters / 4) of every tool output the session produced. */
  toolOutputTokens: number[];
  wallMs: number;
  /** Said beside the row, e.g. that the build has no `clearing` key. */
  note?: string;
}

/** The session replayed: its length and seed, the window, and the range of tool output sizes. */
export interface SessionShape {
  turns: number;
  seed: number;
  /** Default CONTEXT_WINDOW. */
  window?: number;
  /** Tokens of each tool output, log-uniform between them; default 500 to 20,000. */
  outputTokens?: { min: number; max: number };
}

/** Replays the session once per mode, handing each mode's figures over as it finishes. */
export async function runContextBenchmark(options: {
  modes: readonly ContextMode[];
  shape: SessionShape;
  onFigures: (figures: ContextFigures) => void;
}): Promise<void> {
  const { shape } = options;
  const plan = planToolHeavySession({
    turns: shape.turns,
    seed: shape.seed,
    minTokens: shape.outputTokens?.min ?? 500,
    maxTokens: shape.outputTokens?.max ?? 20_000,
  });
  const window = shape.window ?? CONTEXT_WINDOW;
  for (const mode of options.modes)
    options.onFigures(await runMode(mode, plan, { seed: shape.seed, window }));
}

async function runMode(
  mode: ContextMode,
  plan: ToolHeavyPlan,
  shape: { seed: number; window: number },
): Promise<ContextFigures> {
  const root = await mkdtemp(join(tmpdir(), "panto-context-bench-"));
  const clock = installShiftedClock();
  const cache = new PromptCacheModel({ now: () => Date.now() });
  const server = await startCachingAnthropicServer({
    contextWindow: shape.window,
    cache,
    answer: toolHeavyAnswer(plan),
    onExchange: (exchange) => clock.advance(modelTimeMs(exchange)),
    onOverflow: () => clock.advance(MODEL_TIME.REJECTION_MS),
  });
  try {
    const project = join(root, "project");
    await mkdir(join(project, ".git"), { recursive: true });
    await writeDataFile(project, shape.seed);
    const started = await startModeRun(mode, { root, project, server });
    const figures = await playSession(mode, plan, { ...started, server, clock, window: shape.window });
    return { ...figures, ...(started.note === undefined ? {} : { note: started.note }) };
  } finally {
    clock.restore();
    await server.close();
    await rm(root, { recursive: true, force: true });
  }
}

interface StartedRun {
  run: RunContext;
  events: RunEvent[];
  /** performance.now() of the run's latest event. */
  lastEventAt: () => number;
  note?: string;
}

/**
 * Starts the run with the mode's config. v1 alone turns clearing off; a build whose schema has no
 * `clearing` key at all has no clearing to turn off, so that one rejection (and only it) runs v1
 * without the key, saying so. Any other rejection ends the bench.
 */
async function startModeRun(
  mode: ContextMode,
  place: { root: string; project: string; server: CachingAnthropicServer },
): Promise<StartedRun> {
  try {
    return await startWithConfig(mode.config, place);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const unknown = [...message.matchAll(/unknown key "([^"]+)"/g)].map((match) => match[1]);
    if (clearingOff(mode) && unknown.length === 1 && unknown[0] === "clearing") {
      const { clearing: _absent, ...rest } = mode.config;
      return {
        ...(await startWithConfig(rest, place)),
        note: 'this build has no "clearing" key: v1 is its only behaviour',
      };
    }
    throw new Error(
      `mode "${mode.name}": panto did not start with its config ${JSON.stringify(mode.config)}: ${message}`,
    );
  }
}

async function startWithConfig(
  modeConfig: Record<string, unknown>,
  place: { root: string; project: string; server: CachingAnthropicServer },
): Promise<StartedRun> {
  const home = join(place.root, "home");
  await mkdir(home, { recursive: true });
  await mkdir(join(place.project, ".panto"), { recursive: true });
  // Checkpoints are off: the tools only read, and the figures are about the context.
  const config = { checkpoints: false, ...modeConfig };
  await writeFile(join(place.project, ".panto", "config.json"), JSON.stringify(config, null, 2));
  const events = new RunEvents();
  const seen: RunEvent[] = [];
  let lastEventAt = 0;
  events.subscribe((event) => {
    lastEventAt = performance.now();
    if (event.type !== "text-delta" && event.type !== "compaction-progress") seen.push(event);
  });
  const run = await startRun({
    // No sandbox (the bubblewrap start per call is not what is measured); every tool call allowed.
    options: { model: PRICED_MODEL, sandbox: "full", allowTools: true },
    io: {
      cwd: place.project,
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: place.root,
        PANTO_HOME: home,
        ANTHROPIC_API_KEY: "bench-key",
        ANTHROPIC_BASE_URL: place.server.url,
      },
      version: "0.0.0-bench",
    },
    events,
    // A long-lived session (not one-shot), as the terminal and editors hold.
    frontEnd: {},
  });
  return { run, events: seen, lastEventAt: () => lastEventAt };
}

async function playSession(
  mode: ContextMode,
  plan: ToolHeavyPlan,
  session: StartedRun & { server: CachingAnthropicServer; clock: ShiftedClock; window: number },
): Promise<Omit<ContextFigures, "note">> {
  const { run, server, clock, events } = session;
  const overflowTurnOwn: number[] = [];
  const overflowTurnWait: number[] = [];
  const overflowDelay: number[] = [];
  const coldCompactionDelay: number[] = [];
  const toolOutputTokens: number[] = [];
  const counts = { compactions: 0, clearings: 0, backgroundSummaryRequests: 0, overflowSummaryRequests: 0 };
  const began = performance.now();
  let turnEnd = 0;
  try {
    // The model time of background work (a prepared compaction) falls within the user's next pause.
    let backgroundMs = 0;
    for (const [turn, turnPlan] of plan.turns.entries()) {
      const pauseLeft = Math.max(0, turnPlan.pauseMs - backgroundMs);
      const coldAfter = coldTimerMs(mode);
      if (coldAfter !== undefined && pauseLeft > coldAfter) {
        // What the run's timer does a second past the cache's lifetime (ContextWatch), the clock
        // being simulated: the summary the next request's compaction applies is written meanwhile.
        clock.advance(coldAfter);
        const from = Date.now();
        await run.agent.prepareWhileCold();
        clock.advance(Math.max(0, pauseLeft - coldAfter - (Date.now() - from)));
      } else clock.advance(pauseLeft);
      counts.backgroundSummaryRequests += summariesSince(server, turnEnd);
      const overflowsBefore = server.overflows;
      const exchangesBefore = server.exchanges.length;
      const started = performance.now();
      const startedAt = Date.now();
      const result = await run.agent.prompt(turnPrompt(turn));
      const ms = performance.now() - started;
      const waitMs = Date.now() - startedAt;
      turnEnd = server.exchanges.length;
      if (!result.ok)
        throw new Error(`mode "${mode.name}", turn ${turn}: ${result.error.code}: ${result.error.message}`);
      if (server.overflows > overflowsBefore) {
        overflowTurnOwn.push(ms);
        overflowTurnWait.push(waitMs);
        const summaries = server.exchanges
          .slice(exchangesBefore)
          .filter((exchange) => exchange.kind === "summary");
        counts.overflowSummaryRequests += summaries.length;
        overflowDelay.push(
          (server.overflows - overflowsBefore) * MODEL_TIME.REJECTION_MS +
            summaries.reduce((total, exchange) => total + modelTimeMs(exchange), 0),
        );
      }
      if (events.some(isColdCompaction))
        coldCompactionDelay.push(
          server.exchanges
            .slice(exchangesBefore)
            .filter((exchange) => exchange.kind === "summary")
            .reduce((total, exchange) => total + modelTimeMs(exchange), 0),
        );
      if (mayPrepare(mode, server, session.window)) {
        const before = Date.now();
        await quiet(server, session.lastEventAt);
        backgroundMs = Date.now() - before;
      }
      takeEvents(events, { mode, turn, toolOutputTokens, counts });
      // The fake keeps every request; the bench needs only the accounting.
      server.requests.splice(0);
    }
  } finally {
    await run.close();
  }
  counts.backgroundSummaryRequests += summariesSince(server, turnEnd);
  return figuresOf(mode, plan, server, {
    overflowTurnOwn,
    overflowTurnWait,
    overflowDelay,
    coldCompactionDelay,
    toolOutputTokens,
    ...counts,
    wallMs: performance.now() - began,
  });
}

/** Counts the turn's compactions, clearings and tool outputs; a failed tool call or compaction ends the bench. */
function takeEvents(
  events: RunEvent[],
  into: {
    mode: ContextMode;
    turn: number;
    toolOutputTokens: number[];
    counts: { compactions: number; clearings: number };
  },
): void {
  const where = `mode "${into.mode.name}", turn ${into.turn}`;
  for (const event of events.splice(0)) {
    if (event.type === "compaction") into.counts.compactions++;
    // Compared as text: the event comes with clearing (issue 34), which a build may not have.
    if ((event.type as string) === "context-cleared") into.counts.clearings++;
    if (event.type === "compaction-failed") throw new Error(`${where}: compaction failed: ${event.message}`);
    if (event.type === "tool-result") {
      const text = event.result.content.map((block) => (block.type === "text" ? block.text : "")).join("");
      if (event.result.isError)
        throw new Error(`${where}: tool ${event.result.toolName} failed: ${text.slice(0, 300)}`);
      into.toolOutputTokens.push(Math.ceil(text.length / 4));
    }
  }
}

/**
 * With `compact_when_cold`, when the run's timer fires after a turn: a second past the cache's
 * lifetime (the fake's, five minutes, which is also panto's default `cache_ttl_seconds`).
 */
function coldTimerMs(mode: ContextMode): number | undefined {
  return mode.config.compact_when_cold === undefined ? undefined : 301_000;
}

/** A compaction run because the prompt cache had gone cold (trigger "cold-cache", config `compact_when_cold`). */
function isColdCompaction(event: RunEvent): boolean {
  // Compared as text: a build without the trigger has none.
  return event.type === "compaction" && (event.record.trigger as string) === "cold-cache";
}

/** Summary requests the server answered since exchange `from`. */
function summariesSince(server: CachingAnthropicServer, from: number): number {
  return server.exchanges.slice(from).filter((exchange) => exchange.kind === "summary").length;
}

/**
 * Whether the turn just ended near the mode's `prepare_compaction_at` (nine tenths of it, as the
 * server counts), so panto may be preparing a compaction in the background.
 */
function mayPrepare(mode: ContextMode, server: CachingAnthropicServer, window: number): boolean {
  const fraction = mode.config.prepare_compaction_at;
  const last = server.exchanges.findLast((exchange) => exchange.kind === "agent");
  return typeof fraction === "number" && last !== undefined && last.totalTokens >= 0.9 * fraction * window;
}

/** Waits until neither the server nor the run has heard anything for a while (background work done), at most 60 s. */
async function quiet(server: CachingAnthropicServer, lastEventAt: () => number): Promise<void> {
  const quietMs = 300;
  const from = performance.now();
  while (performance.now() - from < 60_000) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    const latest = Math.max(from, server.lastRequestAt, lastEventAt());
    if (performance.now() - latest >= quietMs) return;
  }
  throw new Error("background work still going after 60 s");
}

function figuresOf(
  mode: ContextMode,
  plan: ToolHeavyPlan,
  server: CachingAnthropicServer,
  measured: {
    overflowTurnOwn: number[];
    overflowTurnWait: number[];
    overflowDelay: number[];
    coldCompactionDelay: number[];
    toolOutputTokens: number[];
    compactions: number;
    clearings: number;
    backgroundSummaryRequests: number;
    overflowSummaryRequests: number;
    wallMs: number;
  },
): Omit<ContextFigures, "note"> {
  const exchanges = server.exchanges;
  const sum = (pick: (exchange: CachedExchange) => number) =>
    exchanges.reduce((total, exchange) => total + pick(exchange), 0);
  const agent = exchanges.filter((exchange) => exchange.kind === "agent");
  const clearingRequests = exchanges.filter((exchange) => exchange.changedToolResults > 0).length;
  const inputTokens = sum((exchange) => exchange.inputTokens);
  const cacheWriteTokens = sum((exchange) => exchange.cacheWriteTokens);
  const longCacheWriteTokens = sum((exchange) => exchange.longCacheWriteTokens);
  const cacheReadTokens = sum((exchange) => exchange.cacheReadTokens);
  const outputTokens = sum((exchange) => exchange.outputTokens);
  const rewritten = agent.filter((exchange) => exchange.continuity === "rewritten");
  if (clearingOff(mode) && (clearingRequests > 0 || measured.clearings > 0))
    throw new Error(
      `mode "${mode.name}": ${clearingRequests} requests changed an earlier tool result and panto reported ${measured.clearings} clearings, yet clearing should be off`,
    );
  return {
    mode,
    turns: plan.turns.length,
    agentRequests: agent.length,
    summaryRequests: exchanges.length - agent.length,
    promptTokens: sum((exchange) => exchange.totalTokens),
    inputTokens,
    cacheWriteTokens,
    longCacheWriteTokens,
    cacheReadTokens,
    outputTokens,
    costUsd: exchanges.reduce((total, exchange) => total + costUsd(exchange), 0),
    summaryCostUsd: exchanges
      .filter((exchange) => exchange.kind === "summary")
      .reduce((total, exchange) => total + costUsd(exchange), 0),
    compactions: measured.compactions,
    overflows: server.overflows,
    overflowTurnWait: statsOrNone(measured.overflowTurnWait),
    overflowTurnOwn: statsOrNone(measured.overflowTurnOwn),
    overflowDelay: statsOrNone(measured.overflowDelay),
    overflowSummaryRequests: measured.overflowSummaryRequests,
    coldCompactions: measured.coldCompactionDelay.length,
    coldCompactionDelay: statsOrNone(measured.coldCompactionDelay),
    clearings: measured.clearings,
    clearingRequests,
    backgroundSummaryRequests: measured.backgroundSummaryRequests,
    rewrites: rewritten.length,
    clearingRewrites: rewritten.filter((exchange) => exchange.changedToolResults > 0).length,
    expiredPrefixes: agent.filter((exchange) => exchange.continuity === "expired").length,
    toolOutputTokens: measured.toolOutputTokens,
    wallMs: measured.wallMs,
  };
}

function clearingOff(mode: ContextMode): boolean {
  return (mode.config.clearing as { enabled?: unknown } | undefined)?.enabled === false;
}

function statsOrNone(timesMs: readonly number[]): TimingStats | undefined {
  return timesMs.length === 0 ? undefined : timingStats(timesMs);
}

/** What one request costs at PRICES. */
export function costUsd(exchange: CachedExchange): number {
  return (
    (exchange.inputTokens * PRICES.input +
      (exchange.cacheWriteTokens - exchange.longCacheWriteTokens) * PRICES.cacheWrite +
      exchange.longCacheWriteTokens * PRICES.longCacheWrite +
      exchange.cacheReadTokens * PRICES.cacheRead +
      exchange.outputTokens * PRICES.output) /
    1_000_000
  );
}
