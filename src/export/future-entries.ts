/**
 * Entry types and fields that other branches are adding while this exporter is written. Their
 * shapes are guesses, kept here in one place so that wiring the final ones is a local change.
 * Every reader returns undefined when a field is absent or not of the guessed type.
 */
type Fields = Record<string, unknown>;

/** `compaction-failed`: a compaction whose every attempt failed; the session was left unchanged. */
export interface CompactionFailedInfo {
  trigger: string;
  attempts: Array<{ model: string; code: string; message: string }>;
}

const text = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);
const count = (value: unknown): number | undefined =>
  typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : undefined;

export function compactionFailedInfo(entry: Fields): CompactionFailedInfo {
  const attempts = Array.isArray(entry.attempts) ? entry.attempts : [];
  return {
    trigger: text(entry.trigger) ?? "unknown",
    attempts: attempts.map((attempt) => {
      const fields = (typeof attempt === "object" && attempt !== null ? attempt : {}) as Fields;
      return {
        model: text(fields.model) ?? "?",
        code: text(fields.code) ?? "other",
        message: text(fields.message) ?? "",
      };
    }),
  };
}

/** `uncompact`: undoes the compaction named by `compactionId`. */
export function undoneCompactionId(entry: Fields): string | undefined {
  return entry.type === "uncompact" ? text(entry.compactionId) : undefined;
}

/** `window`: the context window learned (e.g. from an overflow error's numbers). */
export function learnedWindow(entry: Fields): number | undefined {
  if (entry.type === "window") return count(entry.contextWindow) ?? count(entry.tokens);
  if (entry.type === "compaction") return count(entry.contextWindow);
  return undefined;
}

/** Optional compaction fields: how long it took, the size of the request that triggered it, restored facts. */
export function compactionExtras(entry: Fields): {
  durationMs?: number;
  requestTokens?: number;
  restored: Array<{ kind: string; text: string }>;
} {
  const restored = Array.isArray(entry.restored) ? entry.restored : [];
  const extras: {
    durationMs?: number;
    requestTokens?: number;
    restored: Array<{ kind: string; text: string }>;
  } = {
    restored: restored.map((item) => {
      const fields = (typeof item === "object" && item !== null ? item : {}) as Fields;
      return { kind: text(fields.kind) ?? "fact", text: text(fields.text) ?? JSON.stringify(item) };
    }),
  };
  const duration = count(entry.durationMs);
  if (duration !== undefined) extras.durationMs = duration;
  const request = count(entry.requestTokens);
  if (request !== undefined) extras.requestTokens = request;
  return extras;
}

/** `pin` / `unpin`: a note the user pinned so compaction keeps it. */
export function pinText(entry: Fields): string | undefined {
  return text(entry.text) ?? text(entry.note);
}
