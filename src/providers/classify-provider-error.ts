import type { ErrorClassification, ErrorCode } from "../core/index.js";
import {
  AUTH_PATTERNS,
  BILLING_PATTERNS,
  CONTENT_FILTER_PATTERNS,
  INPUT_OVERFLOW_PATTERNS,
  INVALID_REQUEST_PATTERNS,
  matchesAny,
  NETWORK_PATTERNS,
  OUTPUT_LIMIT_PATTERNS,
  OVERFLOW_PATTERNS,
  OVERLOADED_PATTERNS,
  PAYLOAD_SIZE_PATTERNS,
  QUOTA_REFILLS_PATTERNS,
  RATE_LIMIT_PATTERNS,
  SERVER_PATTERNS,
  SPENDING_LIMIT_PATTERNS,
  UNAVAILABLE_EXCEPTION_PATTERNS,
} from "./error-patterns.js";
import { readErrorBody } from "./read-error-body.js";
import { readOverflowNumbers } from "./read-overflow-numbers.js";

/** One failed provider request as seen on the wire: HTTP status when there was one, and the raw body. */
export interface ProviderFailure {
  /** Omit (or null, as in the fixture file) for errors that arrived inside a 200 stream or whose status is unknown. */
  status?: number | null;
  /** Verbatim body or error message, in whatever shape the provider (or a gateway) sent it. */
  body: string;
  /** A hint only (e.g. "anthropic", "openrouter"); classification never depends on it. */
  provider?: string;
}

interface Evidence {
  status: number | undefined;
  text: string;
}

type Rule = (evidence: Evidence) => ErrorClassification | undefined;

const verdict = (code: ErrorCode, retryable: boolean): ErrorClassification => ({ code, retryable });

/**
 * Classifies a failed provider request into an error code and whether retrying it may help.
 *
 * Order matters and encodes the traps in real bodies: rate limits that mention tokens are never
 * overflows; a too-large max_tokens (output limit) is a bad request unless the input is named too;
 * a byte-size cap (HTTP 413, image size) is not the context window unless the body speaks of tokens
 * or a too-long prompt. Overflows and other 4xx are not retryable; 429, 5xx, 529 and dropped
 * connections are. An overflow also carries the request size and context window (tokens) when the
 * body states them.
 */
export function classifyProviderError(failure: ProviderFailure): ErrorClassification {
  // Callers from plain JavaScript sometimes hand over a parsed body; classify its text all the same.
  const body = typeof failure.body === "string" ? failure.body : JSON.stringify(failure.body ?? "");
  const facts = readErrorBody(body);
  if (facts.finishReasons !== undefined) return classifyFinishReasons(facts.finishReasons);
  const status =
    typeof failure.status === "number" && Number.isFinite(failure.status) ? failure.status : undefined;
  const evidence: Evidence = { status: status ?? facts.status, text: facts.text };
  for (const rule of RULES) {
    const result = rule(evidence);
    if (result !== undefined) return withOverflowNumbers(result, evidence.text);
  }
  return classifyByStatus(evidence.status);
}

/** An overflow verdict carries the request size and window the body states; no other verdict does. */
function withOverflowNumbers(result: ErrorClassification, text: string): ErrorClassification {
  if (result.code !== "context_overflow") return result;
  const { requestTokens, contextWindow } = readOverflowNumbers(text);
  return {
    ...result,
    ...(requestTokens === undefined ? {} : { requestTokens }),
    ...(contextWindow === undefined ? {} : { contextWindow }),
  };
}

/**
 * The input size an overflow body states apart from any output reservation (see
 * `OverflowNumbers.inputTokens`), for the decisions that may rest only on the provider's numbers.
 * Kept out of `classifyProviderError`'s answer, whose shape is public.
 */
export function overflowInputTokens(failure: ProviderFailure): number | undefined {
  const body = typeof failure.body === "string" ? failure.body : JSON.stringify(failure.body ?? "");
  return readOverflowNumbers(readErrorBody(body).text).inputTokens;
}

/** A completed response handed over as a failure: only a context-window finish reason is an error we know. */
function classifyFinishReasons(reasons: string[]): ErrorClassification {
  const overflow = reasons.some((reason) => /context (?:window|length)/.test(reason));
  return overflow ? verdict("context_overflow", false) : verdict("other", false);
}

/** A 404 whose body talks about the model (not the route): an unknown model name. */
const MODEL_WORDS = /\bmodels?\b|model_not_found|not_found_error/i;

function isUnknownModel(status: number | undefined, text: string): boolean {
  return (status === 404 && MODEL_WORDS.test(text)) || /\bmodel_not_found\b/.test(text);
}

/**
 * Whether a failure says the model is unknown (an invalid_request the user fixes by choosing another
 * model). Kept apart from the verdict so the error codes stay the ones DESIGN.md lists.
 */
export function saysUnknownModel(failure: ProviderFailure): boolean {
  const body = typeof failure.body === "string" ? failure.body : JSON.stringify(failure.body ?? "");
  const facts = readErrorBody(body);
  const status =
    typeof failure.status === "number" && Number.isFinite(failure.status) ? failure.status : undefined;
  return isUnknownModel(status ?? facts.status, facts.text);
}

const RULES: readonly Rule[] = [
  ({ status }) => (status === 529 ? verdict("overloaded", true) : undefined),
  ({ status }) => (status === 402 ? verdict("other", false) : undefined),
  // Before auth: a key's spending limit comes back as a 403 ("Key limit exceeded"), and the key is fine.
  classifyBilling,
  ({ status, text }) =>
    (status === 401 || status === 403) && !matchesAny(RATE_LIMIT_PATTERNS, text)
      ? verdict("auth", false)
      : undefined,
  classifyRateLimit,
  ({ text }) =>
    matchesAny(OUTPUT_LIMIT_PATTERNS, text) && !matchesAny(INPUT_OVERFLOW_PATTERNS, text)
      ? verdict("invalid_request", false)
      : undefined,
  ({ text }) => (matchesAny(OVERFLOW_PATTERNS, text) ? verdict("context_overflow", false) : undefined),
  ({ text }) => (matchesAny(UNAVAILABLE_EXCEPTION_PATTERNS, text) ? verdict("overloaded", true) : undefined),
  // After overflow: gateways wrap real overflows in words like "Server Unavailable Error".
  ({ status, text }) =>
    isServerOrUnknown(status) && matchesAny(OVERLOADED_PATTERNS, text)
      ? verdict("overloaded", true)
      : undefined,
  ({ status, text }) =>
    status === 413 || matchesAny(PAYLOAD_SIZE_PATTERNS, text) ? verdict("invalid_request", false) : undefined,
  ({ text }) => (matchesAny(CONTENT_FILTER_PATTERNS, text) ? verdict("invalid_request", false) : undefined),
  ({ status, text }) => (isUnknownModel(status, text) ? verdict("invalid_request", false) : undefined),
  ({ text }) => (matchesAny(AUTH_PATTERNS, text) ? verdict("auth", false) : undefined),
  ({ status, text }) =>
    status === 408 || (status === undefined && matchesAny(NETWORK_PATTERNS, text))
      ? verdict("network", true)
      : undefined,
  ({ status, text }) =>
    status === undefined && matchesAny(SERVER_PATTERNS, text) ? verdict("server", true) : undefined,
  ({ status, text }) =>
    status === undefined && matchesAny(INVALID_REQUEST_PATTERNS, text)
      ? verdict("invalid_request", false)
      : undefined,
];

/**
 * A used-up balance, quota or spending limit: waiting cannot fix it, topping up or raising the limit
 * can, and compaction never can, however the body counts tokens. Reported as rate_limit when the
 * provider itself framed it as one (HTTP 429, OpenAI's insufficient_quota), else as other.
 */
function classifyBilling({ status, text }: Evidence): ErrorClassification | undefined {
  const spending = matchesAny(BILLING_PATTERNS, text) || matchesAny(SPENDING_LIMIT_PATTERNS, text);
  if (!spending || matchesAny(QUOTA_REFILLS_PATTERNS, text)) return undefined;
  return verdict(status === 429 ? "rate_limit" : "other", false);
}

/**
 * Rate limits and throttles, even when they talk about tokens. A provider that says it is overloaded
 * with a 429 (Moonshot) is overloaded. A single request larger than the whole per-window budget
 * ("Limit 6000, Requested 14810") will never pass, so it is not retried.
 */
function classifyRateLimit({ status, text }: Evidence): ErrorClassification | undefined {
  if (status !== 429 && !matchesAny(RATE_LIMIT_PATTERNS, text)) return undefined;
  if (/\boverloaded\b/.test(text)) return verdict("overloaded", true);
  return verdict("rate_limit", !requestExceedsWindowBudget(text));
}

function requestExceedsWindowBudget(text: string): boolean {
  const match = /\blimit:? ([\d,]+)\b.{0,40}?\brequested:? ([\d,]+)/.exec(text);
  if (match?.[1] === undefined || match[2] === undefined) return false;
  return toNumber(match[2]) > toNumber(match[1]);
}

const toNumber = (digits: string): number => Number(digits.replace(/,/g, ""));

function isServerOrUnknown(status: number | undefined): boolean {
  return status === undefined || status >= 500;
}

/** The status alone, once no words in the body said more. */
function classifyByStatus(status: number | undefined): ErrorClassification {
  if (status === undefined) return verdict("other", false);
  if (status >= 500) return verdict("server", true);
  if (status >= 400) return verdict("invalid_request", false);
  return verdict("other", false);
}
