import { estimateMessageTokens, estimateTokens } from "../../compaction/index.js";
import type { AssistantMessage, Message, ModelClient } from "../../core/index.js";
import type { Session } from "../../session/index.js";
import type { RunContext } from "../start-run.js";
import type { Style } from "../terminal/render.js";
import { formatTokens } from "../terminal/render.js";

/** Where a context window figure came from. */
export type WindowSource = "learned" | "server";

export interface ContextSize {
  tokens: number;
  /** "usage": the latest request's reported prompt size plus an estimate of what came after it. */
  source: "usage" | "estimate";
}

/**
 * The size of the next request: the prompt size the provider reported for the latest request of
 * the effective context, plus its re-sent output and an estimate of every message after it. Kept
 * copies of a compaction carry usage from before it and are passed over; with no usable usage,
 * the local estimate of everything (system prompt and tool definitions included).
 */
export function contextSize(input: {
  session: Session;
  systemPrompt: string;
  toolDefinitions: readonly unknown[];
}): ContextSize {
  const { session } = input;
  const { messages } = session.effectiveContext();
  const compactionId = session.activeCompaction()?.id;
  const keptCopies =
    compactionId === undefined
      ? 0
      : session.activeEntries().filter((entry) => entry.type === "message" && entry.keptBy === compactionId)
          .length;
  for (let index = messages.length - 1; index >= keptCopies; index--) {
    const message = messages[index];
    if (message?.role !== "assistant" || message.usage === undefined) continue;
    return { tokens: reportedSize(message, messages.slice(index + 1)), source: "usage" };
  }
  const fixed = estimateTokens(input.systemPrompt) + estimateTokens(JSON.stringify(input.toolDefinitions));
  const summary = session.effectiveContext().compaction?.summary ?? "";
  return {
    tokens: fixed + estimateTokens(summary) + messages.reduce((sum, m) => sum + estimateMessageTokens(m), 0),
    source: "estimate",
  };
}

function reportedSize(message: AssistantMessage, after: readonly Message[]): number {
  const usage = message.usage;
  if (usage === undefined) return 0;
  return (
    usage.promptTokens +
    usage.resentOutputTokens +
    after.reduce((sum, m) => sum + estimateMessageTokens(m), 0)
  );
}

/**
 * The context window to show a percentage of: one learned from an overflow (the caller passes it),
 * else the one the server reports, else undefined. Never a table, and never a compaction trigger.
 */
export async function knownWindow(
  client: ModelClient,
  learnedWindow: number | undefined,
): Promise<{ tokens: number; source: WindowSource } | undefined> {
  if (learnedWindow !== undefined) return { tokens: learnedWindow, source: "learned" };
  const reported = await client.contextWindow?.();
  return reported === undefined ? undefined : { tokens: reported, source: "server" };
}

/** The dim line shown after each answer: "context 12.3k tokens · 9% of 131k (reported by the server)". */
export function formatContextStatus(
  size: ContextSize,
  window: { tokens: number; source: WindowSource } | undefined,
  style: Style,
): string {
  const tokens = `${size.source === "estimate" ? "~" : ""}${formatTokens(size.tokens)} tokens`;
  const share =
    window === undefined
      ? ""
      : ` · ${Math.round((size.tokens / window.tokens) * 100)}% of ${formatTokens(window.tokens)} (${window.source === "learned" ? "learned from an overflow" : "reported by the server"})`;
  const note = size.source === "estimate" ? " (estimated: no usage reported)" : "";
  return style.dim(`context ${tokens}${note}${share}`);
}

/** Starts asking the server for its window while the model answers, so the status line need not wait. */
export function prefetchContextWindow(run: RunContext): void {
  void run.modelClient().contextWindow?.();
}

/**
 * The status line for the interactive session after an answer. `learnedWindow`: the window the
 * session learned from an overflow for the active model, when it knows one.
 */
export async function contextStatusLine(
  run: RunContext,
  style: Style,
  learnedWindow?: number,
): Promise<string> {
  const size = contextSize({
    session: run.session,
    systemPrompt: run.systemPrompt,
    toolDefinitions: run.tools.map((tool) => tool.definition),
  });
  return formatContextStatus(size, await knownWindow(run.modelClient(), learnedWindow), style);
}
