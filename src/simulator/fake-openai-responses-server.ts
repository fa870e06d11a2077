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
 * A fake OpenAI Responses API (POST /v1/responses). Streams the real event sequence
 * (response.created, output_item.added/done, reasoning_summary_text / output_text /
 * function_call_arguments deltas, response.completed), or answers with one response object when
 * the request does not ask to stream. Its `url` ends in /v1, like the SDK's baseURL.
 */
export function startFakeOpenAIResponsesServer(options?: FakeServerOptions): Promise<FakeServer> {
  return startFakeServer(responsesWireFormat, options);
}

type Item = Record<string, unknown> & { type: string; id: string };
type Send = (type: string, data: Record<string, unknown>) => void;

const responsesWireFormat: FakeWireFormat = {
  modelList: "openai",
  urlPath: "/v1",
  accepts: (request) => request.method === "POST" && request.path.split("?")[0] === "/v1/responses",
  isStreaming: (request) => (request.body as { stream?: unknown } | undefined)?.stream === true,
  // The real body names no numbers.
  overflowError: () => ({
    status: 400,
    body: JSON.stringify({
      error: {
        message:
          "Your input exceeds the context window of this model. Please adjust your input and try again.",
        type: "invalid_request_error",
        param: "input",
        code: "context_length_exceeded",
      },
    }),
  }),
  writeAnswer(res, answer, exchange) {
    const output = outputItems(answer, exchange);
    const usage = exchange.usage === null ? null : responseUsage(exchange.usage);
    if (!this.isStreaming(exchange.request)) {
      sendJson(res, responseObject(exchange, "completed", output, usage));
      return;
    }
    const send = startEvents(res, exchange);
    for (const [index, item] of output.entries()) streamItem(send, item, index);
    send("response.completed", { response: responseObject(exchange, "completed", output, usage) });
    res.end();
  },
  writeStreamError(res, body, exchange) {
    const send = startEvents(res, exchange);
    writeStreamFailure(res, send, body, exchange);
    res.end();
  },
  writePartialStream(res, text, exchange) {
    const send = startEvents(res, exchange);
    const at = { item_id: "msg_1", output_index: 0 };
    send("response.output_item.added", {
      output_index: 0,
      item: { type: "message", id: "msg_1", status: "in_progress", role: "assistant", content: [] },
    });
    for (const delta of chunkText(text))
      send("response.output_text.delta", { ...at, content_index: 0, delta, logprobs: [] });
  },
};

/** The output items of an answer: reasoning, then the message, then one function call per call. */
function outputItems(answer: FakeAnswer, exchange: FakeExchange): Item[] {
  const items: Item[] = [];
  const include = (exchange.request.body as { include?: unknown } | undefined)?.include;
  const encrypted = Array.isArray(include) && include.includes("reasoning.encrypted_content");
  if (answer.thinking !== undefined) {
    items.push({
      type: "reasoning",
      id: `rs_${exchange.index}`,
      summary: [{ type: "summary_text", text: answer.thinking }],
      ...(encrypted ? { encrypted_content: `enc_${Buffer.from(answer.thinking).toString("base64")}` } : {}),
    });
  }
  if (answer.text !== undefined && answer.text !== "") {
    items.push({
      type: "message",
      id: `msg_${exchange.index}`,
      status: "completed",
      role: "assistant",
      content: [{ type: "output_text", text: answer.text, annotations: [] }],
    });
  }
  const calls = answer.type === "tool-calls" ? answer.calls : [];
  calls.forEach((call, index) => {
    items.push({
      type: "function_call",
      id: `fc_${exchange.index}_${index}`,
      status: "completed",
      call_id: call.id ?? `call_${exchange.index}_${index}`,
      name: call.name,
      arguments: JSON.stringify(call.arguments),
    });
  });
  return items;
}

/** FakeUsage counts cached and reasoning tokens apart; the API folds them into its totals. */
function responseUsage(usage: FakeUsage): Record<string, unknown> {
  const input = usage.input + (usage.cacheRead ?? 0) + (usage.cacheWrite ?? 0);
  const output = usage.output + (usage.reasoning ?? 0);
  return {
    input_tokens: input,
    input_tokens_details: {
      cached_tokens: usage.cacheRead ?? 0,
      ...optional("cache_write_tokens", usage.cacheWrite),
    },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: usage.reasoning ?? 0 },
    total_tokens: input + output,
  };
}

function responseObject(
  exchange: FakeExchange,
  status: string,
  output: Item[],
  usage: unknown,
): Record<string, unknown> {
  return {
    id: `resp_${exchange.index}`,
    object: "response",
    created_at: 1_700_000_000,
    status,
    error: null,
    incomplete_details: null,
    model: exchange.model,
    output,
    parallel_tool_calls: true,
    usage,
  };
}

/** Opens the SSE stream with response.created; every later event carries its type and sequence number. */
function startEvents(res: ServerResponse, exchange: FakeExchange): Send {
  let sequence = 0;
  startSse(res);
  const send: Send = (type, data) => writeSse(res, { type, sequence_number: sequence++, ...data }, type);
  send("response.created", { response: responseObject(exchange, "in_progress", [], null) });
  return send;
}

function streamItem(send: Send, item: Item, outputIndex: number): void {
  const at = { item_id: item.id, output_index: outputIndex };
  if (item.type === "reasoning") {
    const text = (item.summary as Array<{ text: string }>)[0]?.text ?? "";
    const part = { type: "summary_text", text: "" };
    send("response.output_item.added", {
      output_index: outputIndex,
      item: { type: "reasoning", id: item.id, summary: [] },
    });
    send("response.reasoning_summary_part.added", { ...at, summary_index: 0, part });
    for (const delta of chunkText(text))
      send("response.reasoning_summary_text.delta", { ...at, summary_index: 0, delta });
    send("response.reasoning_summary_text.done", { ...at, summary_index: 0, text });
    send("response.reasoning_summary_part.done", { ...at, summary_index: 0, part: { ...part, text } });
  } else if (item.type === "message") {
    const text = (item.content as Array<{ text: string }>)[0]?.text ?? "";
    const part = { type: "output_text", text: "", annotations: [] };
    send("response.output_item.added", {
      output_index: outputIndex,
      item: { ...item, status: "in_progress", content: [] },
    });
    send("response.content_part.added", { ...at, content_index: 0, part });
    for (const delta of chunkText(text))
      send("response.output_text.delta", { ...at, content_index: 0, delta, logprobs: [] });
    send("response.output_text.done", { ...at, content_index: 0, text, logprobs: [] });
    send("response.content_part.done", { ...at, content_index: 0, part: { ...part, text } });
  } else {
    const args = String(item.arguments);
    send("response.output_item.added", {
      output_index: outputIndex,
      item: { ...item, status: "in_progress", arguments: "" },
    });
    for (const delta of chunkText(args)) send("response.function_call_arguments.delta", { ...at, delta });
    send("response.function_call_arguments.done", { ...at, arguments: args });
  }
  send("response.output_item.done", { output_index: outputIndex, item });
}

/**
 * An error inside a 200 stream, the way the API sends one: an error event (`"type": "error"`, or
 * one a client wrapped in `{"error": ...}`) goes out verbatim as `event: error`; a response.failed
 * event verbatim too; a bare error object becomes the `error` of a response.failed; plain text
 * becomes an error event's message.
 */
function writeStreamFailure(res: ServerResponse, send: Send, body: string, exchange: FakeExchange): void {
  const parsed = parseObject(body);
  if (parsed === undefined) send("error", { code: null, message: body, param: null });
  else if (parsed.type === "response.failed") writeSse(res, parsed, "response.failed");
  else if (parsed.type === "error" || "error" in parsed) writeSse(res, parsed, "error");
  else
    send("response.failed", { response: { ...responseObject(exchange, "failed", [], null), error: parsed } });
}

function parseObject(body: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(body);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
