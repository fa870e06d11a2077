import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { optional } from "../core/index.js";
import { isModelListRequest, type ModelListWire, sendModelList } from "./fake-model-list.js";
import {
  estimateRequestTokens,
  type FakeReply,
  type FakeServer,
  type FakeServerOptions,
  type FakeUsage,
  type RecordedRequest,
} from "./fake-provider-types.js";
import { sendBody, startSse } from "./fake-responses.js";
import { answerServerInfo } from "./fake-server-info.js";

export { chunkText, sendBody, sendJson, startSse, writeSse } from "./fake-responses.js";

/** A reply that produces a normal answer (as opposed to an error or a fault). */
export type FakeAnswer = Extract<FakeReply, { type: "text" | "tool-calls" }>;

/** What a wire format's writers get to know about the request they answer. */
export interface FakeExchange {
  request: RecordedRequest;
  /** 0-based index of the request on this server. */
  index: number;
  /** `model` from the request body, for echoing back. */
  model: string;
  /** The usage to report: the reply's own, the size-based default, or null to report none. */
  usage: FakeUsage | null;
}

/**
 * One provider wire format, as the generic fake server needs it. Writers own the whole response:
 * status, headers, body (SSE or JSON) and ending it, except the partial stream, which the server
 * then cuts off (drop, truncate) or leaves hanging.
 */
export interface FakeWireFormat {
  /** Path the SDK expects in the base URL, e.g. "/v1" for OpenAI; "" for Anthropic. */
  urlPath: string;
  /** Whose model list endpoint the server has (served when FakeServerOptions.models is set). */
  modelList: ModelListWire;
  /** Whether this request is one the format answers (method and path); others get a 404. */
  accepts(request: RecordedRequest): boolean;
  /** Whether the request asks for a streamed answer. */
  isStreaming(request: RecordedRequest): boolean;
  /** The format's real context-overflow error with the numbers filled in. */
  overflowError(requestTokens: number, contextWindow: number): { status: number; body: string };
  /** The format's real error for tool calls and results that do not pair up, if the body has them. */
  pairingError?(body: unknown): { status: number; body: string } | undefined;
  writeAnswer(res: ServerResponse, answer: FakeAnswer, exchange: FakeExchange): void;
  /** A 200 stream carrying the format's in-stream error event with this payload. */
  writeStreamError(res: ServerResponse, body: string, exchange: FakeExchange): void;
  /** Starts a 200 stream and sends `text` as the first delta(s), leaving the response open. */
  writePartialStream(res: ServerResponse, text: string, exchange: FakeExchange): void;
}

/** The low-level server: recording, the reply queue, overflow and socket bookkeeping; the caller writes replies. */
export interface FakeHttpConfig {
  /** Path the SDK expects in the base URL ("/v1" for OpenAI, "" for Anthropic); appended to `url`. */
  pathPrefix: string;
  responder?: FakeServerOptions["responder"];
  serverInfo?: FakeServerOptions["serverInfo"];
  /** A reply that pre-empts the queue (a context-overflow error), or undefined to answer normally. */
  overflow?: (rawBody: string, request: RecordedRequest) => FakeReply | undefined;
  /** Answers a request outside the reply queue (a model list); returns false to leave it to the queue. */
  intercept?: (request: RecordedRequest, res: ServerResponse) => boolean;
  /** Writes the whole response for one reply. */
  answer: (
    reply: FakeReply,
    request: RecordedRequest,
    res: ServerResponse,
    rawBody: string,
    index: number,
  ) => void;
}

/**
 * Starts a fake HTTP server on 127.0.0.1 (random port) that records every request and answers each
 * with the overflow reply, else the next queued reply, else the responder's, else a text "ok".
 * `close()` destroys open sockets, so hanging streams never keep a test alive.
 */
export async function startFakeHttpServer(config: FakeHttpConfig): Promise<FakeServer> {
  const requests: RecordedRequest[] = [];
  const infoRequests: RecordedRequest[] = [];
  const queue: FakeReply[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    void readBody(req).then((rawBody) => {
      const request = recordRequest(req, rawBody);
      // A model list the fake was given answers before the server-information paths (one is GET /v1/models).
      if (config.intercept?.(request, res) === true) {
        requests.push(request);
        return;
      }
      const info = answerServerInfo(config.serverInfo, request);
      if (info !== undefined) {
        infoRequests.push(request);
        sendBody(res, info.status, JSON.stringify(info.body));
        return;
      }
      const index = requests.push(request) - 1;
      const reply = config.overflow?.(rawBody, request) ??
        queue.shift() ??
        config.responder?.(request, index) ?? { type: "text", text: "ok" };
      config.answer(reply, request, res, rawBody, index);
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}${config.pathPrefix}`,
    requests,
    infoRequests,
    enqueue: (...replies) => void queue.push(...replies),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Starts a scriptable fake provider server for one wire format described by `format`. */
export function startFakeServer(
  format: FakeWireFormat,
  options: FakeServerOptions = {},
): Promise<FakeServer> {
  const { firstByteDelayMs = 0 } = options;
  const count = (request: RecordedRequest, rawBody: string): number =>
    options.countTokens?.(request, rawBody) ?? estimateRequestTokens(rawBody);
  return startFakeHttpServer({
    pathPrefix: format.urlPath,
    ...optional("responder", options.responder),
    ...optional("serverInfo", options.serverInfo),
    intercept: (request, res) => {
      if (options.models === undefined || !isModelListRequest(format.modelList, request)) return false;
      sendModelList(format.modelList, res, options.models);
      return true;
    },
    overflow: (rawBody, request) => {
      if (options.requirePairing === true && format.accepts(request)) {
        const unpaired = format.pairingError?.(request.body);
        if (unpaired !== undefined) return { type: "error", ...unpaired };
      }
      // Read per request, so a test can set the window once it knows the server's count of something.
      const { contextWindow } = options;
      const requestTokens = count(request, rawBody);
      if (contextWindow === undefined || requestTokens <= contextWindow || !format.accepts(request))
        return undefined;
      const overflowError = options.overflowError ?? format.overflowError;
      return { type: "error", ...overflowError(requestTokens, contextWindow) };
    },
    answer: (reply, request, res, rawBody, index) => {
      if (!format.accepts(request)) {
        sendBody(
          res,
          404,
          JSON.stringify({ error: { message: `no route for ${request.method} ${request.path}` } }),
        );
        return;
      }
      const exchange: FakeExchange = {
        request,
        index,
        model: modelOf(request.body),
        usage:
          reply.type === "text" || reply.type === "tool-calls"
            ? resolveUsage(reply, keptTokens(count(request, rawBody), options.truncateAbove))
            : null,
      };
      if (firstByteDelayMs <= 0) writeReply(format, reply, exchange, res);
      else {
        const timer = setTimeout(() => writeReply(format, reply, exchange, res), firstByteDelayMs);
        res.on("close", () => clearTimeout(timer));
      }
    },
  });
}

function writeReply(
  format: FakeWireFormat,
  reply: FakeReply,
  exchange: FakeExchange,
  res: ServerResponse,
): void {
  switch (reply.type) {
    case "text":
    case "tool-calls":
      format.writeAnswer(res, reply, exchange);
      return;
    case "error":
      sendBody(res, reply.status, reply.body, reply.headers);
      return;
    case "stream-error":
      format.writeStreamError(res, reply.body, exchange);
      return;
    case "drop":
      format.writePartialStream(res, reply.afterText ?? "partial answer", exchange);
      // Let the deltas reach the client before the connection dies under it.
      setTimeout(() => res.socket?.destroy(), 20);
      return;
    case "truncate":
      format.writePartialStream(res, reply.afterText ?? "partial answer", exchange);
      res.end();
      return;
    case "hang":
      if (reply.afterText !== undefined) {
        format.writePartialStream(res, reply.afterText, exchange);
        return;
      }
      startSse(res);
      res.write(": waiting\n\n");
      return;
    case "keepalive":
      writeKeepalives(res, reply.text ?? ": ping\n\n", reply.intervalMs ?? 50);
      return;
    case "silent":
      return;
  }
}

/** Starts a stream that carries nothing but `text`, repeated every `intervalMs` until the client leaves. */
function writeKeepalives(res: ServerResponse, text: string, intervalMs: number): void {
  startSse(res);
  res.write(text);
  const timer = setInterval(() => res.write(text), intervalMs);
  res.on("close", () => clearInterval(timer));
}

/** The reply's usage, or the default: the request's estimated size in, a quarter of the output's characters out. */
/** What a silently truncating server reports as the prompt: no more than it kept. */
function keptTokens(requestTokens: number, truncateAbove: number | undefined): number {
  return truncateAbove === undefined ? requestTokens : Math.min(requestTokens, truncateAbove);
}

function resolveUsage(reply: FakeAnswer, requestTokens: number): FakeUsage | null {
  if (reply.usage !== undefined) return reply.usage;
  return { input: requestTokens, output: Math.ceil(answerLength(reply) / 4) };
}

function answerLength(reply: FakeAnswer): number {
  const calls = reply.type === "tool-calls" ? reply.calls : [];
  const argumentsLength = calls.reduce((sum, call) => sum + JSON.stringify(call.arguments).length, 0);
  return (reply.text ?? "").length + (reply.thinking ?? "").length + argumentsLength;
}

function modelOf(body: unknown): string {
  const model = typeof body === "object" && body !== null ? (body as { model?: unknown }).model : undefined;
  return typeof model === "string" ? model : "fake-model";
}

function recordRequest(req: IncomingMessage, rawBody: string): RecordedRequest {
  let body: unknown = rawBody;
  try {
    body = rawBody === "" ? undefined : JSON.parse(rawBody);
  } catch {
    // Keep the raw text: a malformed body is itself worth asserting on.
  }
  return { method: req.method ?? "GET", path: req.url ?? "/", headers: { ...req.headers }, body };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", () => resolve(Buffer.concat(chunks).toString("utf8")));
  });
}
