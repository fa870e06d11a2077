import { anthropicOverflowError, startFakeAnthropicServer } from "./fake-anthropic-server.js";
import type { FakeReply, FakeServer, RecordedRequest } from "./fake-provider-types.js";
import { countPromptTokens, type PromptCacheModel } from "./prompt-cache-model.js";

/** A normal scripted answer (the caching server fills in its usage). */
export type ScriptedAnswer = Extract<FakeReply, { type: "text" | "tool-calls" }>;

/**
 * How a request's cached prefix relates to the previous request of the same kind: "first", "extends"
 * (it holds the previous one's whole cached prefix), "expired" (that prefix had left the cache) or
 * "rewritten" (that prefix was still cached but this request changed it: a cache rewrite).
 */
export type PrefixContinuity = "first" | "extends" | "expired" | "rewritten";

/** One answered Messages request, as the cache model accounted it. */
export interface CachedExchange {
  /** "summary": a request without tools (a compaction's summary request); "agent": the others. */
  kind: "agent" | "summary";
  totalTokens: number;
  inputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  /** The part of the cache writes made for one-hour breakpoints. */
  longCacheWriteTokens: number;
  outputTokens: number;
  continuity: PrefixContinuity;
  /** tool_result blocks whose content differs from what an earlier request sent for the same call. */
  changedToolResults: number;
}

export interface CachingAnthropicServer extends FakeServer {
  /** Every answered Messages request, in order. */
  readonly exchanges: readonly CachedExchange[];
  /** Messages requests rejected as larger than the window, so far. */
  readonly overflows: number;
  /** performance.now() of the latest Messages request received (0 before the first). */
  readonly lastRequestAt: number;
}

/**
 * The fake Anthropic server with token accounting: a request's size is the cache model's count of
 * its tools, system and messages; one above `contextWindow` gets Anthropic's real overflow error;
 * every other is answered by `answer` with usage split the API's way (`input_tokens`,
 * `cache_creation_input_tokens`, `cache_read_input_tokens`) by the prompt cache model.
 */
export async function startCachingAnthropicServer(options: {
  contextWindow: number;
  cache: PromptCacheModel;
  answer: (request: RecordedRequest) => ScriptedAnswer;
  /** Hears each answered request before its answer is sent (a benchmark moves its clock by the model's time). */
  onExchange?: (exchange: CachedExchange) => void;
  /** Hears each request rejected as over the window, before the error is sent. */
  onOverflow?: (requestTokens: number) => void;
}): Promise<CachingAnthropicServer> {
  const exchanges: CachedExchange[] = [];
  const counted = new WeakMap<RecordedRequest, number>();
  const previousPrefix = new Map<CachedExchange["kind"], string>();
  const toolResults = new ToolResultTracker();
  let overflows = 0;
  let lastRequestAt = 0;
  const count = (request: RecordedRequest): number => {
    const known = counted.get(request);
    if (known !== undefined) return known;
    lastRequestAt = performance.now();
    const tokens = countPromptTokens(request.body);
    counted.set(request, tokens);
    return tokens;
  };
  const server = await startFakeAnthropicServer({
    contextWindow: options.contextWindow,
    countTokens: (request) => count(request),
    overflowError: (requestTokens, contextWindow) => {
      overflows++;
      options.onOverflow?.(requestTokens);
      return anthropicOverflowError(requestTokens, contextWindow);
    },
    responder: (request) => {
      if (!isMessagesRequest(request)) return { type: "text", text: "ok" };
      const reply = options.answer(request);
      const kind = (request.body as { tools?: unknown[] }).tools?.length ? "agent" : "summary";
      const previous = previousPrefix.get(kind);
      const warm = previous !== undefined && options.cache.isWarm(previous);
      const account = options.cache.account(request.body);
      if (account.lastBreakpointHash !== undefined) previousPrefix.set(kind, account.lastBreakpointHash);
      const outputTokens = reply.usage?.output ?? Math.ceil(answerCharacters(reply) / 4);
      const exchange: CachedExchange = {
        kind,
        totalTokens: account.totalTokens,
        inputTokens: account.inputTokens,
        cacheReadTokens: account.cacheReadTokens,
        cacheWriteTokens: account.cacheWriteTokens,
        longCacheWriteTokens: account.longCacheWriteTokens,
        outputTokens,
        continuity: continuity(previous, warm, account.prefixHashes),
        changedToolResults: toolResults.changed(request.body),
      };
      exchanges.push(exchange);
      options.onExchange?.(exchange);
      return {
        ...reply,
        usage: {
          input: account.inputTokens,
          cacheRead: account.cacheReadTokens,
          cacheWrite: account.cacheWriteTokens,
          longCacheWrite: account.longCacheWriteTokens,
          output: outputTokens,
        },
      };
    },
  });
  return {
    url: server.url,
    requests: server.requests,
    infoRequests: server.infoRequests,
    enqueue: server.enqueue,
    close: server.close,
    exchanges,
    get overflows() {
      return overflows;
    },
    get lastRequestAt() {
      return lastRequestAt;
    },
  };
}

function isMessagesRequest(request: RecordedRequest): boolean {
  return request.method === "POST" && request.path.split("?")[0] === "/v1/messages";
}

function answerCharacters(reply: ScriptedAnswer): number {
  const calls = reply.type === "tool-calls" ? reply.calls : [];
  return (
    (reply.text ?? "").length + calls.reduce((sum, call) => sum + JSON.stringify(call.arguments).length, 0)
  );
}

function continuity(
  previous: string | undefined,
  warm: boolean,
  prefixes: ReadonlySet<string>,
): PrefixContinuity {
  if (previous === undefined) return "first";
  if (!warm) return "expired";
  return prefixes.has(previous) ? "extends" : "rewritten";
}

/** The content each tool call's result was last sent with, to see when a request changes one. */
class ToolResultTracker {
  private readonly sent = new Map<string, string>();

  /** How many tool_result blocks of this body differ from the same call's result in an earlier request. */
  changed(body: unknown): number {
    let changed = 0;
    const messages = (body as { messages?: unknown }).messages;
    for (const message of Array.isArray(messages) ? messages : []) {
      const content = (message as { content?: unknown }).content;
      for (const block of Array.isArray(content) ? content : []) {
        const { type, tool_use_id: id, content: result } = block as Record<string, unknown>;
        if (type !== "tool_result" || typeof id !== "string") continue;
        const text = JSON.stringify(result ?? null);
        const before = this.sent.get(id);
        if (before !== undefined && before !== text) changed++;
        this.sent.set(id, text);
      }
    }
    return changed;
  }
}
