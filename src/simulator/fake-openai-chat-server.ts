import type { ServerResponse } from "node:http";
import { optional } from "../core/index.js";
import {
  chunkText,
  type FakeAnswer,
  type FakeExchange,
  type FakeWireFormat,
  sendJson,
  startFakeServer,
  startSse,
  writeSse,
} from "./fake-http.js";
import type { FakeServer, FakeServerOptions, FakeUsage } from "./fake-provider-types.js";

/**
 * A fake OpenAI Chat Completions API (POST /v1/chat/completions), the wire format every
 * OpenAI-compatible server speaks. Its `url` ends in /v1, like OPENAI_BASE_URL. Thinking streams as
 * `reasoning_content` deltas (DeepSeek, vLLM); the usage chunk is sent only when the request asks
 * for it with `stream_options.include_usage`, as OpenAI does.
 */
export function startFakeOpenAIChatServer(options?: FakeServerOptions): Promise<FakeServer> {
  return startFakeServer(chatWireFormat, options);
}

interface ChatRequestBody {
  stream?: unknown;
  stream_options?: { include_usage?: unknown } | null;
}

const chatWireFormat: FakeWireFormat = {
  modelList: "openai",
  urlPath: "/v1",
  accepts: (request) => request.method === "POST" && request.path.split("?")[0] === "/v1/chat/completions",
  isStreaming: (request) => (request.body as ChatRequestBody | undefined)?.stream === true,
  overflowError: (requestTokens, contextWindow) => ({
    status: 400,
    body: JSON.stringify({
      error: {
        message: `This model's maximum context length is ${contextWindow} tokens. However, your messages resulted in ${requestTokens} tokens. Please reduce the length of the messages.`,
        type: "invalid_request_error",
        param: "messages",
        code: "context_length_exceeded",
      },
    }),
  }),
  writeAnswer(res, answer, exchange) {
    const finishReason = answer.type === "tool-calls" ? "tool_calls" : "stop";
    const usage = exchange.usage === null ? null : chatUsage(exchange.usage);
    if (!this.isStreaming(exchange.request)) {
      sendJson(res, {
        ...completionShell(exchange, "chat.completion"),
        choices: [
          {
            index: 0,
            message: completeMessage(answer, exchange),
            finish_reason: finishReason,
            logprobs: null,
          },
        ],
        ...(usage === null ? {} : { usage }),
      });
      return;
    }
    const send = startChunks(res, exchange);
    for (const piece of chunkText(answer.thinking ?? "")) send({ reasoning_content: piece });
    for (const piece of chunkText(answer.text ?? "")) send({ content: piece });
    if (answer.type === "tool-calls") {
      for (const [index, call] of toolCalls(answer, exchange).entries()) {
        send({
          tool_calls: [
            { index, id: call.id, type: "function", function: { name: call.function.name, arguments: "" } },
          ],
        });
        for (const piece of chunkText(call.function.arguments, 8)) {
          send({ tool_calls: [{ index, function: { arguments: piece } }] });
        }
      }
    }
    send({}, finishReason);
    if (includeUsage(exchange) && usage !== null) {
      writeSse(res, { ...completionShell(exchange, "chat.completion.chunk"), choices: [], usage });
    }
    writeSse(res, "[DONE]");
    res.end();
  },
  writeStreamError(res, body, exchange) {
    const send = startChunks(res, exchange);
    send({ content: "" });
    // OpenRouter's shape: a chunk carrying `error`, with finish_reason "error".
    writeSse(res, {
      ...completionShell(exchange, "chat.completion.chunk"),
      error: errorPayload(body),
      choices: [{ index: 0, delta: { content: "" }, finish_reason: "error" }],
    });
    res.end();
  },
  writePartialStream(res, text, exchange) {
    const send = startChunks(res, exchange);
    for (const piece of chunkText(text)) send({ content: piece });
  },
};

type ChunkSender = (delta: Record<string, unknown>, finishReason?: string) => void;

/** Starts the SSE stream with the role chunk; returns a writer of one-choice chunks. */
function startChunks(res: ServerResponse, exchange: FakeExchange): ChunkSender {
  startSse(res);
  const usageField = includeUsage(exchange) ? { usage: null } : {};
  const send: ChunkSender = (delta, finishReason) =>
    writeSse(res, {
      ...completionShell(exchange, "chat.completion.chunk"),
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason ?? null }],
      ...usageField,
    });
  send({ role: "assistant", content: "" });
  return send;
}

function includeUsage(exchange: FakeExchange): boolean {
  return (exchange.request.body as ChatRequestBody | undefined)?.stream_options?.include_usage === true;
}

function completionShell(exchange: FakeExchange, object: string): Record<string, unknown> {
  return {
    id: `chatcmpl-fake-${exchange.index}`,
    object,
    created: 1_700_000_000,
    model: exchange.model,
    system_fingerprint: null,
  };
}

function toolCalls(answer: FakeAnswer, exchange: FakeExchange) {
  const calls = answer.type === "tool-calls" ? answer.calls : [];
  return calls.map((call, index) => ({
    id: call.id ?? `call_fake_${exchange.index}_${index}`,
    type: "function" as const,
    function: { name: call.name, arguments: JSON.stringify(call.arguments) },
  }));
}

function completeMessage(answer: FakeAnswer, exchange: FakeExchange): Record<string, unknown> {
  const calls = toolCalls(answer, exchange);
  return {
    role: "assistant",
    content: answer.text ?? null,
    ...optional("reasoning_content", answer.thinking),
    ...(calls.length === 0 ? {} : { tool_calls: calls }),
    refusal: null,
  };
}

/** OpenAI counts cached tokens inside prompt_tokens and reasoning inside completion_tokens. */
function chatUsage(usage: FakeUsage): Record<string, unknown> {
  const prompt = usage.input + (usage.cacheRead ?? 0) + (usage.cacheWrite ?? 0);
  const completion = usage.output + (usage.reasoning ?? 0);
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    prompt_tokens_details: { cached_tokens: usage.cacheRead ?? 0, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: usage.reasoning ?? 0, audio_tokens: 0 },
  };
}

/** The `error` field of the error chunk: the body's own `error` when it has one, else the body itself. */
function errorPayload(body: string): unknown {
  try {
    const parsed: unknown = JSON.parse(body);
    if (typeof parsed === "object" && parsed !== null && "error" in parsed)
      return (parsed as { error: unknown }).error;
    return parsed;
  } catch {
    return { message: body };
  }
}
