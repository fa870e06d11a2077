/** The closed set of failure codes. Adapters classify; everything above switches on the code. */
export const ERROR_CODES = [
  "context_overflow",
  "rate_limit",
  "overloaded",
  "auth",
  "invalid_request",
  /** The provider does not know the requested model (a 404 about the model, not the route). */
  "server",
  "network",
  "aborted",
  "other",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** The structured result of classifying one failed provider request. */
export interface ErrorClassification {
  code: ErrorCode;
  /** Whether the same request may succeed if sent again after a pause. */
  retryable: boolean;
  /**
   * Overflows only, when the body states it: the rejected request's size in tokens as the provider
   * counted it (its stated total, which may include reserved output tokens, else the input's size).
   */
  requestTokens?: number;
  /** Overflows only, when the body states it: the model's context window (or input limit) in tokens. */
  contextWindow?: number;
}
