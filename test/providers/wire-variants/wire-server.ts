import { createServer, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { afterEach } from "vitest";
import type { AssistantMessage, ModelClient, ModelRequest, StreamEvent } from "../../../src/core/index.js";
import type { AdapterOptions } from "../../../src/providers/adapter-options.js";

/*
 * Legitimate wire behaviours that differ from our own fake servers: what another fake written from
 * the public docs, or a real compatible server (Ollama, llama.cpp, vLLM, LM Studio, OpenRouter,
 * proxies), may send. Each server here is hand-rolled on node:http and writes raw bytes, so none of
 * our simulator's habits leak in.
 */

export interface RecordedWireRequest {
  path: string;
  body: Record<string, unknown>;
}

export interface WireServer {
  /** http://127.0.0.1:PORT, without any path. */
  readonly origin: string;
  readonly requests: RecordedWireRequest[];
  close(): Promise<void>;
}

/** How one request is answered; `res` is left to the handler (it may keep the response open). */
export type Respond = (res: ServerResponse, request: RecordedWireRequest) => void;

let open: WireServer | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

export async function startWire(respond: Respond): Promise<WireServer> {
  const requests: RecordedWireRequest[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const request = {
        path: req.url ?? "/",
        body: text === "" ? {} : (JSON.parse(text) as Record<string, unknown>),
      };
      requests.push(request);
      respond(res, request);
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  open = {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  return open;
}

/**
 * Answers every request with this body, then ends (unless `keepOpen`). In one piece it goes out
 * with a content-length, as most servers send a JSON answer; in several, chunked.
 */
export function replyWith(
  body: string,
  options: { contentType?: string; keepOpen?: boolean; pieces?: number } = {},
): Respond {
  return (res) => {
    const bytes = Buffer.from(body, "utf8");
    const pieces = options.pieces ?? 1;
    const contentType = options.contentType ?? "text/event-stream";
    if (pieces === 1 && options.keepOpen !== true) {
      res.writeHead(200, { "content-type": contentType, "content-length": String(bytes.length) });
      res.end(bytes);
      return;
    }
    res.writeHead(200, { "content-type": contentType });
    const size = Math.ceil(bytes.length / pieces);
    for (let start = 0; start < bytes.length; start += size) res.write(bytes.subarray(start, start + size));
    if (options.keepOpen !== true) res.end();
  };
}

export interface SseFormat {
  /** Line ending; "\r\n" for servers on Windows stacks or behind some proxies. */
  eol?: string;
  /** "data: " as documented, or "data:" as some servers write it. */
  dataPrefix?: string;
  /** An `event:` line naming the payload's `type` before each data line. */
  eventLines?: boolean;
  /** A comment line (": keep-alive") before every event. */
  comments?: boolean;
  /** The OpenAI terminator `data: [DONE]` after the events. */
  done?: boolean;
}

/** Serialises payloads as server-sent events the way the format options say. */
export function sse(payloads: unknown[], format: SseFormat = {}): string {
  const eol = format.eol ?? "\n";
  const prefix = format.dataPrefix ?? "data: ";
  const events = payloads.map((payload) => {
    const lines: string[] = [];
    if (format.comments === true) lines.push(": keep-alive");
    const type = (payload as { type?: unknown }).type;
    if (format.eventLines === true && typeof type === "string") lines.push(`event: ${type}`);
    lines.push(`${prefix}${typeof payload === "string" ? payload : JSON.stringify(payload)}`);
    return lines.join(eol) + eol + eol;
  });
  if (format.done === true) events.push(`${prefix}[DONE]${eol}${eol}`);
  return events.join("");
}

export const hello: Omit<ModelRequest, "model"> = {
  systemPrompt: "You are panto.",
  context: { messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }] },
  tools: [],
};

/**
 * No retries (a variant that breaks must fail at once) and a short idle timeout (one that hangs).
 * Tests of servers that keep the connection open after the answer use `HOLD_OPEN` instead: an idle
 * timeout far beyond the test's own, so only stopping at the terminal event can pass them.
 */
function adapterOptions(baseURL: string, extra: Partial<AdapterOptions> = {}): AdapterOptions {
  return {
    provider: "local",
    model: "m",
    apiKey: "k",
    baseURL,
    retry: { maxRetries: 0 },
    idleTimeoutMs: 3000,
    ...extra,
  };
}

export const HOLD_OPEN: Partial<AdapterOptions> = { idleTimeoutMs: 600_000 };

/**
 * The adapter under test pointed at a wire server: `path` is what its base URL adds to the origin
 * ("/v1" for the OpenAI adapters), `defaults` what every client of this adapter's tests sets.
 */
export function wireClient(
  create: (options: AdapterOptions) => ModelClient,
  path = "",
  defaults: Partial<AdapterOptions> = {},
): (server: WireServer, extra?: Partial<AdapterOptions>) => ModelClient {
  return (server, extra = {}) => create(adapterOptions(`${server.origin}${path}`, { ...defaults, ...extra }));
}

export async function run(
  client: ModelClient,
): Promise<{ message: AssistantMessage; events: StreamEvent[] }> {
  const events: StreamEvent[] = [];
  const message = await client.stream(hello, { onEvent: (event) => events.push(event) });
  return { message, events };
}

export const textsOf = (events: StreamEvent[]): string =>
  events.flatMap((event) => (event.type === "text-delta" ? [event.text] : [])).join("");
