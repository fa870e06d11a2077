import type { InitializeRequest, InitializeResponse } from "@agentclientprotocol/sdk";

/**
 * A first `initialize` longer than this is not looked at here: the SDK reads it, with its own
 * limits and errors.
 */
const FIRST_LINE_LIMIT = 64 * 1024;

/**
 * What `panto acp` answers to `initialize`, whoever answers it (this file or the SDK's app).
 * `images`: whether prompts may carry images (false when `-m` names a model that takes none).
 */
export function initializeResponse(version: string, images = true): InitializeResponse {
  return {
    protocolVersion: 1,
    agentInfo: { name: "panto", title: "panto", version },
    agentCapabilities: {
      loadSession: true,
      promptCapabilities: { image: images, embeddedContext: true },
      mcpCapabilities: { http: true, sse: true },
      sessionCapabilities: { list: {}, resume: {}, close: {} },
    },
    authMethods: [],
  };
}

/**
 * What is wrong with `initialize`'s params (an object with a numeric protocolVersion, and
 * clientCapabilities an object when given), undefined when nothing is.
 */
export function initializeParamsProblem(params: unknown): string | undefined {
  if (
    typeof params !== "object" ||
    params === null ||
    typeof (params as { protocolVersion?: unknown }).protocolVersion !== "number"
  )
    return "initialize needs params with a numeric protocolVersion";
  const capabilities = (params as { clientCapabilities?: unknown }).clientCapabilities;
  if (capabilities !== undefined && (typeof capabilities !== "object" || capabilities === null))
    return "initialize's clientCapabilities must be an object";
  return undefined;
}

/** The input after the first line, and that line's `initialize` when it was answered here. */
export interface EarlyInitialize {
  initialize?: InitializeRequest;
  /** Everything the client sent that was not answered here, from its first byte. */
  rest: ReadableStream<Uint8Array>;
}

/**
 * Answers the client's first message when it is a well-formed `initialize`, before the ACP SDK,
 * its schemas (zod) and the runtime are loaded: an editor waits for that answer before anything
 * else, and loading them first cost it about 100 ms. The answer is the one the SDK's app gives
 * (`initializeResponse`). Anything else first (another method, bad params, a line that is not
 * JSON-RPC, a line over 64 KiB) is left to the SDK whole, so its errors stay the SDK's.
 */
export async function answerInitializeEarly(
  input: ReadableStream<Uint8Array>,
  output: NodeJS.WritableStream,
  version: string,
  images = true,
): Promise<EarlyInitialize> {
  const reader = input.getReader();
  const { head, ended } = await readFirstLine(reader);
  const newline = head.indexOf(0x0a);
  const request = newline < 0 ? undefined : initializeRequestOf(head.subarray(0, newline));
  const unread = request === undefined ? head : head.subarray(newline + 1);
  if (request !== undefined)
    output.write(
      `${JSON.stringify({ jsonrpc: "2.0", id: request.id, result: initializeResponse(version, images) })}\n`,
    );
  const rest = new ReadableStream<Uint8Array>({
    start(controller) {
      if (unread.length > 0) controller.enqueue(unread);
      if (ended) controller.close();
    },
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  return request === undefined ? { rest } : { initialize: request.params, rest };
}

/** The bytes read until the first newline (or the limit, or the end), and whether the input ended. */
async function readFirstLine(
  reader: ReadableStreamDefaultReader<Uint8Array>,
): Promise<{ head: Uint8Array; ended: boolean }> {
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { head: Buffer.concat(chunks, length), ended: true };
    chunks.push(value);
    length += value.length;
    if (value.includes(0x0a) || length > FIRST_LINE_LIMIT)
      return { head: Buffer.concat(chunks, length), ended: false };
  }
}

/** The line as an `initialize` request this file may answer, or undefined. */
function initializeRequestOf(
  line: Uint8Array,
): { id: string | number; params: InitializeRequest } | undefined {
  let message: unknown;
  try {
    message = JSON.parse(Buffer.from(line).toString("utf8"));
  } catch {
    return undefined;
  }
  if (typeof message !== "object" || message === null || Array.isArray(message)) return undefined;
  const { jsonrpc, id, method, params } = message as Record<string, unknown>;
  const usableId = typeof id === "string" || (typeof id === "number" && Number.isSafeInteger(id));
  if (jsonrpc !== "2.0" || method !== "initialize" || !usableId) return undefined;
  if (initializeParamsProblem(params) !== undefined) return undefined;
  return { id: id as string | number, params: params as InitializeRequest };
}
