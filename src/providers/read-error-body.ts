/**
 * What the classifier needs from a raw failure body, whatever shape it came in: JSON, pretty JSON,
 * Python-repr dicts, arrays, JSON nested inside string fields (OpenRouter `metadata.raw`), SSE error
 * events, plain text.
 */
export interface ErrorBodyFacts {
  /**
   * Every word of the body, lowercased, with escapes, quotes, backticks, underscores and hyphens
   * turned into single spaces, so `context_length_exceeded` and "context length exceeded" read alike.
   */
  text: string;
  /** An HTTP-like status (400-599) the body itself states, for failures that arrive without one. */
  status?: number;
  /**
   * Set when the body is a successful completion rather than an error (a 200 response, or a stream's
   * final chunk): its finish reasons, normalised like `text`. The generated text is deliberately left
   * out so that a model writing "context length exceeded" cannot look like a failure.
   */
  finishReasons?: string[];
}

/** Reads a failure body of any shape into normalised text plus the facts the classifier keys on. */
export function readErrorBody(body: string): ErrorBodyFacts {
  const parsed = parseJsonLoosely(body);
  if (parsed !== undefined && isCompletion(parsed)) {
    return { text: "", finishReasons: collectFinishReasons(parsed).map(normaliseErrorText) };
  }
  const strings = parsed === undefined ? [] : collectStrings(parsed);
  const text = normaliseErrorText([body, ...strings].join(" \n "));
  const status = statusStatedInBody(text);
  return status === undefined ? { text } : { text, status };
}

/**
 * Lowercases and flattens punctuation that only gets in the way of matching words. Identifiers in
 * camelCase or PascalCase are split into their words first, so an exception type such as
 * `ServiceUnavailableException` or `ContextWindowExceededError` reads like the sentence it names.
 */
export function normaliseErrorText(raw: string): string {
  return raw
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .replace(/\\+[nrt]/g, " ")
    .replace(/\\+/g, "")
    .replace(/[`"'\u2018\u2019\u201c\u201d_-]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/** Parses JSON found anywhere in the text (after a "400 " or "data: " prefix, say); undefined if none. */
export function parseJsonLoosely(body: string): unknown {
  for (const candidate of jsonCandidates(body)) {
    try {
      return JSON.parse(candidate);
    } catch {
      // Not JSON from here; try the next candidate.
    }
  }
  return undefined;
}

function jsonCandidates(body: string): string[] {
  const trimmed = body.trim();
  const candidates = [trimmed];
  const start = trimmed.search(/[[{]/);
  if (start > 0) candidates.push(trimmed.slice(start));
  const dataLine = /^data:\s*(.+)$/m.exec(trimmed);
  if (dataLine?.[1] !== undefined) candidates.push(dataLine[1]);
  return candidates;
}

/** Every string leaf of a JSON value, with strings that are themselves JSON expanded too. */
function collectStrings(value: unknown, depth = 0): string[] {
  if (depth > 8) return [];
  if (typeof value === "string") {
    const nested = /^\s*[[{]/.test(value) ? parseJsonLoosely(value) : undefined;
    return nested === undefined ? [value] : [value, ...collectStrings(nested, depth + 1)];
  }
  if (Array.isArray(value)) return value.flatMap((item) => collectStrings(item, depth + 1));
  if (typeof value === "object" && value !== null) {
    return Object.values(value).flatMap((item) => collectStrings(item, depth + 1));
  }
  return [];
}

/** A successful (possibly truncated) completion body: OpenAI, Responses, Anthropic or Gemini shaped, no error. */
function isCompletion(value: unknown): boolean {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  if (record.error !== undefined && record.error !== null) return false;
  if (record.object === "error" || record.type === "error") return false;
  return (
    Array.isArray(record.choices) ||
    Array.isArray(record.candidates) ||
    (record.type === "message" && "stop_reason" in record) ||
    (record.object === "response" && Array.isArray(record.output))
  );
}

const FINISH_KEYS = new Set(["finish_reason", "finishReason", "stop_reason", "reason"]);

function collectFinishReasons(value: unknown, depth = 0): string[] {
  if (depth > 6 || typeof value !== "object" || value === null) return [];
  if (Array.isArray(value)) return value.flatMap((item) => collectFinishReasons(item, depth + 1));
  return Object.entries(value).flatMap(([key, item]) =>
    FINISH_KEYS.has(key) && typeof item === "string" ? [item] : collectFinishReasons(item, depth + 1),
  );
}

/**
 * A status the body states in its own fields (`"code": 429`, `raw_status_code`, `httpStatusCode`), as
 * the SDK's prefix ("400 status code (no body)", "400: ..."), or in the title of a proxy's HTML error
 * page ("<title>504 Gateway Time-out</title>", "api.example.com | 524: A timeout occurred"). Only
 * 400-599 count: providers also use "code" for their own numbers (Mistral "3051", GLM "1261").
 */
function statusStatedInBody(text: string): number | undefined {
  const field =
    /\b(?:code|status|status code|raw status code|statuscode|httpstatuscode)\s*:\s*([45]\d\d)\b/.exec(text);
  const prefix = /^(?:error:?\s*)?([45]\d\d)\b(?!\s*(?:tokens|bytes|ms|s\b))/.exec(text);
  const title = /<(?:title|h1)>[^<]*?\b([45]\d\d)\b/.exec(text);
  const found = field?.[1] ?? prefix?.[1] ?? title?.[1];
  return found === undefined ? undefined : Number(found);
}
