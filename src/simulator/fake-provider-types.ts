/**
 * Shared shapes of the scriptable fake provider servers in this folder. Each server speaks one real
 * wire format on 127.0.0.1; tests and `panto demo` point the real adapters at it by base URL.
 */

export interface FakeUsage {
  /** Prompt tokens, cached ones excluded (the server reports them the provider's way). */
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
  /** The part of cacheWrite written for one-hour breakpoints (Anthropic's `ephemeral_1h_input_tokens`). */
  longCacheWrite?: number;
  reasoning?: number;
}

export interface FakeToolCall {
  id?: string;
  name: string;
  arguments: Record<string, unknown>;
}

/** One scripted answer to one request. */
export type FakeReply =
  /** A normal streamed (or non-streamed) answer. `usage: null` omits usage entirely. */
  | { type: "text"; text: string; thinking?: string; usage?: FakeUsage | null }
  | { type: "tool-calls"; calls: FakeToolCall[]; text?: string; thinking?: string; usage?: FakeUsage | null }
  /** An HTTP error with this status and verbatim body. */
  | { type: "error"; status: number; body: string; headers?: Record<string, string> }
  /** A 200 stream that carries an error event in the wire format's own way (body is the error payload). */
  | { type: "stream-error"; body: string }
  /** Sends some text, then destroys the socket. */
  | { type: "drop"; afterText?: string }
  /** Sends some text, then ends the response cleanly without the terminal event. */
  | { type: "truncate"; afterText?: string }
  /**
   * Sends headers and nothing else, forever (until the client gives up or the server closes); with
   * `afterText`, sends that text first (an answer that stops mid-stream and stays open).
   */
  | { type: "hang"; afterText?: string }
  /**
   * Sends headers, then `text` (default the SSE comment ": ping\n\n") every `intervalMs`
   * (default 50), forever: a keepalive-only stream.
   */
  | { type: "keepalive"; text?: string; intervalMs?: number }
  /** Accepts the request and never answers: no status line, no headers, no bytes. */
  | { type: "silent" };

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON body. */
  body: unknown;
}

export interface FakeServerOptions {
  /**
   * When set, a request whose estimated size (JSON body length / 4, rounded up) exceeds it is
   * answered with this wire format's real context-overflow error, without consuming the queue.
   */
  contextWindow?: number;
  /**
   * Milliseconds each model request waits before its first byte (status line, headers, body), as
   * a slow server does; 0 or unset answers at once.
   */
  firstByteDelayMs?: number;
  /**
   * The model names the format's list endpoint reports (Anthropic and OpenAI GET /v1/models,
   * Gemini GET /v1beta/models). Without it the list endpoint answers 404, like servers without one.
   */
  models?: readonly string[];
  /**
   * Another server's real overflow error to answer `contextWindow` with (llama.cpp, vLLM... behind the
   * same wire format), given the request's size and the window. Default: the wire format's own.
   */
  overflowError?: (requestTokens: number, contextWindow: number) => { status: number; body: string };
  /**
   * Like Ollama: a request larger than this many tokens is not rejected but silently cut to this size,
   * and the usage reports only the part kept.
   */
  truncateAbove?: number;
  /**
   * The server's own count of a model request, for the overflow decision and the usage it reports;
   * default `estimateRequestTokens` (JSON body characters / 4). A server whose tokenizer or
   * accounting differs from everyone else's (tool definitions left out, another tokenizer) is one
   * function away.
   */
  countTokens?: (request: RecordedRequest, rawBody: string) => number;
  /**
   * Rejects, as the real API does, a request whose tool calls and results do not pair up (a call
   * without its result in the next message, a result without its call in the previous one), with
   * the wire format's own error, without consuming the queue. Anthropic's format only.
   */
  requirePairing?: boolean;
  /** Answers requests when the queue is empty. Default: a short text reply. */
  responder?: (request: RecordedRequest, index: number) => FakeReply;
  /** The server kind whose context-window endpoint the fake answers (see FakeServerInfo). */
  serverInfo?: FakeServerInfo;
}

export interface FakeServer {
  /** Base URL to hand the adapter (e.g. "http://127.0.0.1:PORT" plus the path prefix the SDK expects). */
  readonly url: string;
  /** Every request received, in order. */
  readonly requests: RecordedRequest[];
  /** Server-information requests (GET /props, POST /api/show, ...): answered apart, never from the queue. */
  readonly infoRequests: RecordedRequest[];
  /** Replies used in order before the responder. */
  enqueue(...replies: FakeReply[]): void;
  close(): Promise<void>;
}

/** The size estimate the fake servers use to decide overflow: JSON body characters / 4. */
export function estimateRequestTokens(rawBody: string): number {
  return Math.ceil(rawBody.length / 4);
}

/**
 * The kind of server a fake OpenAI-compatible endpoint pretends to be, for the endpoints that report
 * the context window: llama.cpp `GET /props` and `/slots`, Ollama `POST /api/show`, LM Studio
 * `GET /api/v0/models`, OpenRouter `GET /v1/models` (its `/api/v1/models`, under the fake's /v1).
 */
export interface FakeServerInfo {
  kind: "llama.cpp" | "ollama" | "lmstudio" | "openrouter";
  /** The window the server reports: n_ctx, context_length, loaded_context_length. */
  contextWindow: number;
  /** The model name the listings carry (LM Studio, OpenRouter); default "fake-model". */
  model?: string;
  /** Ollama only: also report `num_ctx` among the model's parameters. */
  numCtx?: number;
}
