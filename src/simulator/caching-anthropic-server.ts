import { anthropicOverflowError, startFakeAnthropicServer } from "./fake-anthropic-server.js";
import type { FakeReply, FakeServer, RecordedRequest } from "./fake-provider-types.js";
import { type CacheAccount, countPromptTokens, type PromptCacheModel } from "./prompt-cache-model.js";

/** A normal scripted answer (the caching server fills in its usage). */
export type ScriptedAnswer = Extract<FakeReply, { type: "text" | "tool-calls" }>;

/** One answered Messages request, as the cache model accounted it. */
export interface CachedExchange {
  /** "summary": a request without tools (a compaction's summary request); "agent": the others. */
  kind: "agent" | "summary";
  account: CacheAccount;
  outputTokens: number;
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
}): Promise<CachingAnthropicServer> {
  const exchanges: CachedExchange[] = [];
  const counted = new WeakMap<RecordedRequest, number>();
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
      return anthropicOverflowError(requestTokens, contextWindow);
    },
    responder: (request) => {
      if (!isMessagesRequest(request)) return { type: "text", text: "ok" };
      const reply = options.answer(request);
      const account = options.cache.account(request.body);
      const outputTokens = reply.usage?.output ?? Math.ceil(answerCharacters(reply) / 4);
      const tools = (request.body as { tools?: unknown[] }).tools;
      exchanges.push({ kind: tools?.length ? "agent" : "summary", account, outputTokens });
      return {
        ...reply,
        usage: {
          input: account.inputTokens,
          cacheRead: account.cacheReadTokens,
          cacheWrite: account.cacheWriteTokens,
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
