import type { IncomingMessage } from "node:http";
import { request as httpRequest } from "node:http";
import { networkError } from "../provider-error.js";
import type { ByteBody } from "./sniff-response-body.js";

/** An HTTP answer whose headers have arrived: the status, the headers (names in lower case), the body unread. */
export interface HttpAnswer {
  status: number;
  headers: Record<string, string>;
  /** The body's bytes, decoded of any content-encoding; stopping early closes the connection. */
  body: ByteBody;
}

export interface PostJsonOptions {
  provider: string;
  headers: Record<string, string>;
  body: string;
  signal: AbortSignal;
  /** Sends through this fetch instead of node:http (tests, proxies: the adapter's `fetch` option). */
  fetch?: typeof fetch;
}

/**
 * POSTs a JSON body and resolves once the answer's headers arrive. It goes through node:http (or
 * node:https) rather than the global fetch: fetch loads and compiles undici and its WebAssembly
 * HTTP parser on first use, which cost a short `panto -p` run about as much CPU as Node's own
 * start. A request that never gets an answer (refused, reset, unknown host) rejects with a network
 * error naming the system's reason; an abort of `signal` rejects with the signal's reason.
 */
export function postJson(url: string, options: PostJsonOptions): Promise<HttpAnswer> {
  if (options.fetch !== undefined) return postWithFetch(options.fetch, url, options);
  return url.startsWith("https:")
    ? import("node:https").then(({ request }) => postWithNode(request, url, options))
    : postWithNode(httpRequest, url, options);
}

function postWithNode(send: typeof httpRequest, url: string, options: PostJsonOptions): Promise<HttpAnswer> {
  const body = Buffer.from(options.body);
  return new Promise((resolve, reject) => {
    const request = send(
      url,
      {
        method: "POST",
        headers: { ...options.headers, "content-length": String(body.length) },
        signal: options.signal,
      },
      (response) => {
        decodedBody(response).then(
          (decoded) =>
            resolve({ status: response.statusCode ?? 0, headers: flatHeaders(response), body: decoded }),
          reject,
        );
      },
    );
    request.on("error", (error) =>
      reject(options.signal.aborted ? options.signal.reason : networkError(options.provider, error)),
    );
    request.end(body);
  });
}

async function postWithFetch(send: typeof fetch, url: string, options: PostJsonOptions): Promise<HttpAnswer> {
  let response: Response;
  try {
    response = await send(url, {
      method: "POST",
      headers: options.headers,
      body: options.body,
      signal: options.signal,
    });
  } catch (error) {
    throw options.signal.aborted ? options.signal.reason : networkError(options.provider, error);
  }
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return { status: response.status, headers, body: response.body ?? emptyBody() };
}

async function* emptyBody(): AsyncGenerator<Uint8Array> {}

/** Repeated headers joined with ", ", as fetch's Headers does (set-cookie aside, which no caller reads). */
function flatHeaders(response: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return headers;
}

/**
 * The body as sent, or decompressed when the server compressed it anyway (panto asks for no
 * encoding, but a proxy may send gzip); zlib loads only then.
 */
async function decodedBody(response: IncomingMessage): Promise<AsyncIterable<Uint8Array>> {
  const encoding = (response.headers["content-encoding"] ?? "").trim().toLowerCase();
  if (encoding === "" || encoding === "identity") return response;
  const zlib = await import("node:zlib");
  const decoder =
    encoding === "gzip" || encoding === "x-gzip"
      ? zlib.createGunzip()
      : encoding === "deflate"
        ? zlib.createInflate()
        : encoding === "br"
          ? zlib.createBrotliDecompress()
          : undefined;
  if (decoder === undefined) return response;
  response.on("error", (error) => decoder.destroy(error));
  decoder.on("close", () => response.destroy());
  return response.pipe(decoder);
}
