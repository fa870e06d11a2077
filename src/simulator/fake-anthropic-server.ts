import type { ServerResponse } from "node:http";
import { anthropicPairingError } from "./anthropic-pairing.js";
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
 * A fake Anthropic Messages API (POST /v1/messages). Its `url` is the host without /v1, like
 * ANTHROPIC_BASE_URL: the SDK appends /v1/messages itself.
 */
export function startFakeAnthropicServer(options?: FakeServerOptions): Promise<FakeServer> {
  return startFakeServer(anthropicWireFormat, options);
}

/** Anthropic's real context-overflow error, with the numbers filled in. */
export function anthropicOverflowError(
  requestTokens: number,
  contextWindow: number,
): { status: number; body: string } {
  return {
    status: 400,
    body: JSON.stringify({
      type: "error",
      error: {
        type: "invalid_request_error",
        message: `prompt is too long: ${requestTokens} tokens > ${contextWindow} maximum`,
      },
    }),
  };
}

type WireBlock =
  | { type: "thinking"; thinking: string; signature: string }
  | { type: "text"; text: string }
  | { type: "tool_use"; id: string; name: string; input: Record<string, unknown> };

const anthropicWireFormat: FakeWireFormat = {
  modelList: "anthropic",
  urlPath: "",
  accepts: (request) => request.method === "POST" && request.path.split("?")[0] === "/v1/messages",
  isStreaming: (request) => (request.body as { stream?: unknown } | undefined)?.stream === true,
  overflowError: anthropicOverflowError,
  pairingError: anthropicPairingError,
  writeAnswer(res, answer, exchange) {
    const blocks = wireBlocks(answer, exchange.index);
    const stopReason = answer.type === "tool-calls" ? "tool_use" : "end_turn";
    if (!this.isStreaming(exchange.request)) {
      sendJson(res, {
        ...messageShell(exchange, exchange.usage === null ? null : messageUsage(exchange.usage)),
        content: blocks,
        stop_reason: stopReason,
      });
      return;
    }
    startSse(res);
    writeMessageStart(res, exchange);
    writeSse(res, { type: "ping" }, "ping");
    for (const [index, block] of blocks.entries()) writeBlock(res, block, index);
    writeSse(
      res,
      {
        type: "message_delta",
        delta: { stop_reason: stopReason, stop_sequence: null },
        ...(exchange.usage === null ? {} : { usage: outputUsage(exchange.usage) }),
      },
      "message_delta",
    );
    writeSse(res, { type: "message_stop" }, "message_stop");
    res.end();
  },
  writeStreamError(res, body, exchange) {
    startSse(res);
    writeMessageStart(res, exchange);
    writeSse(res, body, "error");
    res.end();
  },
  writePartialStream(res, text, exchange) {
    startSse(res);
    writeMessageStart(res, exchange);
    writeSse(
      res,
      { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
      "content_block_start",
    );
    for (const piece of chunkText(text)) {
      writeSse(
        res,
        { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: piece } },
        "content_block_delta",
      );
    }
  },
};

function wireBlocks(answer: FakeAnswer, requestIndex: number): WireBlock[] {
  const blocks: WireBlock[] = [];
  if (answer.thinking !== undefined) {
    blocks.push({ type: "thinking", thinking: answer.thinking, signature: fakeSignature(answer.thinking) });
  }
  if (answer.text !== undefined && answer.text !== "") blocks.push({ type: "text", text: answer.text });
  if (answer.type === "tool-calls") {
    answer.calls.forEach((call, index) => {
      const id = call.id ?? `toolu_fake_${requestIndex}_${index}`;
      blocks.push({ type: "tool_use", id, name: call.name, input: call.arguments });
    });
  }
  return blocks;
}

/** Streams one content block the way the API does: start (empty), deltas, stop. */
function writeBlock(res: ServerResponse, block: WireBlock, index: number): void {
  const start =
    block.type === "text"
      ? { type: "text", text: "" }
      : block.type === "thinking"
        ? { type: "thinking", thinking: "", signature: "" }
        : { type: "tool_use", id: block.id, name: block.name, input: {} };
  writeSse(res, { type: "content_block_start", index, content_block: start }, "content_block_start");
  for (const delta of blockDeltas(block)) {
    writeSse(res, { type: "content_block_delta", index, delta }, "content_block_delta");
  }
  writeSse(res, { type: "content_block_stop", index }, "content_block_stop");
}

function blockDeltas(block: WireBlock): Array<Record<string, string>> {
  switch (block.type) {
    case "text":
      return chunkText(block.text).map((text) => ({ type: "text_delta", text }));
    case "thinking":
      return [
        ...chunkText(block.thinking).map((thinking) => ({ type: "thinking_delta", thinking })),
        { type: "signature_delta", signature: block.signature },
      ];
    case "tool_use":
      return chunkText(JSON.stringify(block.input), 8).map((partial_json) => ({
        type: "input_json_delta",
        partial_json,
      }));
  }
}

function writeMessageStart(res: ServerResponse, exchange: FakeExchange): void {
  // message_start reports the input side; output so far is the usual 1 token.
  const usage = exchange.usage === null ? null : { ...messageUsage(exchange.usage), output_tokens: 1 };
  writeSse(
    res,
    { type: "message_start", message: { ...messageShell(exchange, usage), content: [] } },
    "message_start",
  );
}

function messageShell(
  exchange: FakeExchange,
  usage: Record<string, unknown> | null,
): Record<string, unknown> {
  return {
    id: `msg_fake_${exchange.index}`,
    type: "message",
    role: "assistant",
    model: exchange.model,
    stop_reason: null,
    stop_sequence: null,
    ...(usage === null ? {} : { usage }),
  };
}

function messageUsage(usage: FakeUsage): Record<string, unknown> {
  return {
    input_tokens: usage.input,
    cache_creation_input_tokens: usage.cacheWrite ?? 0,
    cache_read_input_tokens: usage.cacheRead ?? 0,
    // The split by lifetime, as the API reports it, when the script gives the one-hour part.
    ...(usage.longCacheWrite === undefined
      ? {}
      : {
          cache_creation: {
            ephemeral_5m_input_tokens: (usage.cacheWrite ?? 0) - usage.longCacheWrite,
            ephemeral_1h_input_tokens: usage.longCacheWrite,
          },
        }),
    ...outputUsage(usage),
  };
}

/** Output tokens include thinking; the breakdown is reported only when the script gives one. */
function outputUsage(usage: FakeUsage): Record<string, unknown> {
  return {
    output_tokens: usage.output + (usage.reasoning ?? 0),
    ...(usage.reasoning === undefined ? {} : { output_tokens_details: { thinking_tokens: usage.reasoning } }),
  };
}

/** An opaque, deterministic stand-in for the signature Anthropic attaches to thinking. */
function fakeSignature(thinking: string): string {
  return `sig_${Buffer.from(thinking).toString("base64").slice(0, 24)}`;
}
