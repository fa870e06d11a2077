import type { RequestSize } from "../agent/index.js";
import type { ModelSettings } from "../config/index.js";
import type { ModelClient } from "../core/index.js";
import { formatRequestTokens, formatTokens } from "./format-text.js";
import { publishedContextWindow } from "./published-context-window.js";
import type { RunContext } from "./run-context.js";
import type { WindowSource } from "./window-source.js";

/** A window shown with the next request's size, and where it came from. */
export interface ShownWindow {
  tokens: number;
  source: WindowSource;
}

/**
 * The next request's size, system prompt and tool definitions included: the one figure every
 * front-end shows for "the context" (`Agent.contextSize`: the provider's numbers where known, else
 * the local estimate).
 */
export function contextSize(run: RunContext): RequestSize {
  return run.agent.contextSize();
}

/**
 * The context window to show a percentage of, most trusted first: one learned from an overflow
 * (the caller passes it), the one the server reports, the one config `models` sets for `modelId`,
 * the published one. Display only: never a compaction trigger nor a retention budget.
 */
export async function knownWindow(
  client: ModelClient,
  learnedWindow: number | undefined,
  modelId?: string,
  models?: Record<string, ModelSettings>,
): Promise<ShownWindow | undefined> {
  if (learnedWindow !== undefined) return { tokens: learnedWindow, source: "learned" };
  const reported = await client.contextWindow?.();
  if (reported !== undefined) return { tokens: reported, source: "server" };
  if (modelId === undefined) return undefined;
  const configured = models?.[modelId]?.context_window;
  if (configured !== undefined) return { tokens: configured, source: "configured" };
  const published = publishedContextWindow(modelId);
  return published === undefined ? undefined : { tokens: published, source: "published" };
}

/** How a window's source reads after its size: "(reported by the server)". */
export function windowSourceText(source: WindowSource): string {
  switch (source) {
    case "learned":
      return "learned from an overflow";
    case "server":
      return "reported by the server";
    case "configured":
      return "set in config";
    case "published":
      return "the model's published window";
  }
}

/**
 * The headline of `/context`: the next request's size, what it includes and where it comes from,
 * and the share of the window where one is known.
 */
export function describeRequestSize(size: RequestSize, window: ShownWindow | undefined): string {
  const from =
    size.source === "usage"
      ? "from the provider's numbers, what they do not cover estimated"
      : "local estimate: nothing in this context reported usage yet";
  const share =
    window === undefined
      ? "; no context window known for this model"
      : `; ${Math.round((size.tokens / window.tokens) * 100)}% of ${formatTokens(window.tokens)} (${windowSourceText(window.source)})`;
  return `Next request: ${formatRequestTokens(size)}, system prompt and tool definitions included (${from})${share}.`;
}

/** Starts asking the server for its window while the model answers, so the status line need not wait. */
export function prefetchContextWindow(run: RunContext): void {
  void run.modelClient().contextWindow?.();
}

/**
 * How full the context is: the next request's size (`contextSize`), and the window it fills where
 * one is known (`learnedWindow`: the one the session learned from an overflow for the active model).
 * What the status line, `/context` and ACP's `usage_update` show.
 */
export async function contextUsage(
  run: RunContext,
  learnedWindow?: number,
): Promise<{ size: RequestSize; window: ShownWindow | undefined }> {
  const window = await knownWindow(run.modelClient(), learnedWindow, run.agent.model, run.models);
  return { size: contextSize(run), window };
}
