import type { ErrorCode } from "./error-codes.js";

/** The one error type that crosses layers. `code` is what callers switch on; never match on `message`. */
export class PantoError extends Error {
  readonly code: ErrorCode;
  readonly retryable: boolean;
  readonly status: number | undefined;
  readonly provider: string | undefined;
  /** How long the provider asked us to wait before retrying (retry-after), when it said. */
  readonly retryAfterMs: number | undefined;
  /** context_overflow only: the rejected request's size in tokens, when the provider stated it. */
  readonly requestTokens: number | undefined;
  /** context_overflow only: the model's context window in tokens, when the provider stated it. */
  readonly contextWindow: number | undefined;
  /**
   * context_overflow only: the rejected request's input alone, when the provider stated it apart
   * from any output reservation (`requestTokens` may include that reservation).
   */
  readonly inputTokens: number | undefined;
  /**
   * invalid_request only: the provider said it does not know the model (a 404 about the model, not
   * the route), so the user can be told how to list and switch models.
   */
  readonly unknownModel: boolean;
  /**
   * network only: a connection to this machine was refused, so no server is listening there and
   * the request was not retried (waiting cannot start it).
   */
  readonly nothingListening: boolean;

  constructor(
    code: ErrorCode,
    message: string,
    options: {
      retryable?: boolean;
      status?: number;
      provider?: string;
      retryAfterMs?: number;
      requestTokens?: number;
      contextWindow?: number;
      inputTokens?: number;
      unknownModel?: boolean;
      nothingListening?: boolean;
      cause?: unknown;
    } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "PantoError";
    this.code = code;
    this.retryable = options.retryable ?? false;
    this.status = options.status;
    this.provider = options.provider;
    this.retryAfterMs = options.retryAfterMs;
    this.requestTokens = options.requestTokens;
    this.contextWindow = options.contextWindow;
    this.inputTokens = options.inputTokens;
    this.unknownModel = options.unknownModel ?? false;
    this.nothingListening = options.nothingListening ?? false;
  }
}

export function isPantoError(value: unknown): value is PantoError {
  return value instanceof PantoError;
}
