import type { LearnedWindow } from "../core/index.js";
import { optional } from "../core/index.js";
import type { SessionEntry } from "./session-entries.js";

/**
 * The latest window learned for each model, from entries in file order: a compaction entry carries
 * every window known when it was written, and each later window entry overrides its model's. Carried
 * windows are merged rather than replacing what came before, so a compaction undone by /uncompact
 * (replay then reads back past it) still contributes what it knew.
 * A malformed carried value is skipped (a window is a hint; the session stays usable without it).
 */
export function learnedWindows(entries: readonly SessionEntry[]): Record<string, LearnedWindow> {
  let windows: Record<string, LearnedWindow> = {};
  for (const entry of entries) {
    if (entry.type === "compaction") windows = { ...windows, ...carried(entry.windows) };
    else if (entry.type === "window") windows[entry.model] = windowOf(entry);
  }
  return windows;
}

function windowOf(entry: LearnedWindow): LearnedWindow {
  return {
    contextWindow: entry.contextWindow,
    ...optional("requestTokens", entry.requestTokens),
    ...optional("estimatedTokens", entry.estimatedTokens),
  };
}

function carried(windows: unknown): Record<string, LearnedWindow> {
  const result: Record<string, LearnedWindow> = {};
  if (typeof windows !== "object" || windows === null) return result;
  for (const [model, value] of Object.entries(windows)) {
    if (isWindow(value)) result[model] = windowOf(value);
  }
  return result;
}

const isCount = (value: unknown): boolean =>
  value === undefined || (typeof value === "number" && Number.isSafeInteger(value) && value > 0);

function isWindow(value: unknown): value is LearnedWindow {
  if (typeof value !== "object" || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    record.contextWindow !== undefined &&
    isCount(record.contextWindow) &&
    isCount(record.requestTokens) &&
    isCount(record.estimatedTokens)
  );
}
