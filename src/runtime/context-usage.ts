import { type RequestSize, requestSize } from "../agent/index.js";
import { estimateTokens } from "../compaction/index.js";
import type { ModelClient } from "../core/index.js";
import type { Session } from "../session/index.js";
import type { RunContext } from "./run-context.js";

/** Where a context window figure came from. */
export type WindowSource = "learned" | "server";

/**
 * The size of the next request as the server reported it: the prompt size of the latest request of
 * the effective context, plus its re-sent output and an estimate of every message after it. Kept
 * copies of a compaction carry usage from before it and are passed over; with no usage, the local
 * estimate of everything (system prompt and tool definitions included).
 */
export function contextSize(input: {
  session: Session;
  systemPrompt: string;
  toolDefinitions: readonly unknown[];
}): RequestSize {
  const { session } = input;
  const compactionId = session.activeCompaction()?.id;
  const keptCopies =
    compactionId === undefined
      ? 0
      : session.activeEntries().filter((entry) => entry.type === "message" && entry.keptBy === compactionId)
          .length;
  const overhead = estimateTokens(input.systemPrompt) + estimateTokens(JSON.stringify(input.toolDefinitions));
  return requestSize(session.effectiveContext(), overhead, { calibrated: false, copiedMessages: keptCopies });
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

/** Starts asking the server for its window while the model answers, so the status line need not wait. */
export function prefetchContextWindow(run: RunContext): void {
  void run.modelClient().contextWindow?.();
}

/**
 * How full the context is after an answer: the next request's size as the server counts it, and
 * the window it fills where one is known (`learnedWindow`: the one the session learned from an
 * overflow for the active model). What the terminal's status line shows.
 */
export async function contextUsage(
  run: RunContext,
  learnedWindow?: number,
): Promise<{ size: RequestSize; window: { tokens: number; source: WindowSource } | undefined }> {
  const size = contextSize({
    session: run.session,
    systemPrompt: run.systemPrompt,
    toolDefinitions: run.tools.map((tool) => tool.definition),
  });
  return { size, window: await knownWindow(run.modelClient(), learnedWindow) };
}
