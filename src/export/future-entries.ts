/**
 * Entry types and fields that other branches added while this exporter was written, read from the
 * raw fields in one place so that a change of shape is a local change. The window readers follow
 * the real `window` entry and the compaction entry's `windows`; the others are the shapes guessed
 * then. Every reader returns undefined (or nothing) when a field is absent or not of its type.
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

/**
 * The context windows an entry records, by "provider/model": a `window` entry (written when an
 * overflow error stated the window: `model`, `contextWindow`, optional `requestTokens` and
 * `estimatedTokens`) names one; a compaction entry carries every window known when it was written
 * in `windows` (model -> that same shape). Malformed values are skipped.
 */
export function windowsOfEntry(entry: Fields): Array<[model: string, contextWindow: number]> {
  if (entry.type === "window") {
    const model = text(entry.model);
    const window = positive(windowOf(entry));
    return model === undefined || window === undefined ? [] : [[model, window]];
  }
  if (entry.type !== "compaction" || typeof entry.windows !== "object" || entry.windows === null) return [];
  return Object.entries(entry.windows as Fields).flatMap(([model, value]): Array<[string, number]> => {
    const window = positive(
      typeof value === "object" && value !== null ? windowOf(value as Fields) : undefined,
    );
    return window === undefined ? [] : [[model, window]];
  });
}

const windowOf = (fields: Fields): unknown => fields.contextWindow;
const positive = (value: unknown): number | undefined => {
  const number = count(value);
  return number === undefined || number === 0 ? undefined : number;
};

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
