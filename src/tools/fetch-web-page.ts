import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import http, { type IncomingMessage } from "node:http";
import https from "node:https";
import { isIP, type LookupFunction } from "node:net";
import type { Readable } from "node:stream";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import { BINARY_SNIFF_BYTES, looksBinary } from "./looks-binary.js";
import { privateAddressReason } from "./private-address.js";
import { ToolError } from "./tool-error.js";

/** How one fetch may go. */
export interface FetchOptions {
  /** Config `web_fetch.allow_private`: loopback, link-local and private addresses may be reached. */
  allowPrivate: boolean;
  /** Addresses reached even when private ones are refused: the tests' site on 127.0.0.1, nothing else. */
  allowedAddresses?: readonly string[];
  timeoutMs: number;
  /** Bytes of the (decompressed) body read at most; the rest is never read. */
  maxBytes: number;
  maxRedirects: number;
  signal?: AbortSignal;
}

/** What a fetch found. `redirects`: the URLs left on the way to `url`, in order. */
export type FetchedPage =
  | {
      kind: "text";
      url: string;
      redirects: string[];
      status: number;
      statusText: string;
      contentType: string;
      text: string;
      /** The body went on past `maxBytes`; `text` is its start. */
      cut: boolean;
    }
  | {
      kind: "binary";
      url: string;
      redirects: string[];
      status: number;
      contentType: string;
      /** From Content-Length, when the server gave one. */
      size: number | undefined;
    }
  | { kind: "elsewhere"; url: string; redirects: string[]; status: number; location: string };

/**
 * No cookies, no Authorization, no proxy credentials, no key of panto's: a request says only what
 * it wants and who asks.
 */
const HEADERS = {
  "user-agent": "panto (web_fetch)",
  accept: "text/html, text/markdown, text/plain, application/json;q=0.9, */*;q=0.5",
  "accept-encoding": "gzip, deflate, br",
};

/**
 * Fetches an http(s) URL. Redirects are followed on the same host only (at most `maxRedirects`),
 * each hop checked like the first; a redirect to another host is handed back (`elsewhere`), so the
 * model asks for it by a new call that the permission rules and the user judge by its own host (a
 * rule allowing docs.rs must not let docs.rs send panto anywhere). Every address connected to is
 * checked (an IP literal before connecting, a name's every resolved address at connect time, so a
 * name cannot resolve to a public address for a check and a private one for the connection).
 */
export async function fetchWebPage(given: string, options: FetchOptions): Promise<FetchedPage> {
  let url = httpUrl(given);
  const redirects: string[] = [];
  const deadline = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal === undefined ? deadline : AbortSignal.any([deadline, options.signal]);
  try {
    for (;;) {
      const response = await request(url, options, signal);
      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      if (status >= 300 && status < 400 && location !== undefined) {
        response.destroy();
        const next = redirectTarget(location, url);
        if (next.hostname !== url.hostname) {
          return { kind: "elsewhere", url: url.href, redirects, status, location: next.href };
        }
        if (redirects.length >= options.maxRedirects) {
          throw new ToolError(
            `${given} redirected more than ${options.maxRedirects} times (last to ${next.href})`,
          );
        }
        redirects.push(url.href);
        url = next;
        continue;
      }
      return await readPage(response, url.href, redirects, options.maxBytes);
    }
  } catch (error) {
    if (deadline.aborted)
      throw new ToolError(`${url.href} did not answer within ${options.timeoutMs / 1000} s`);
    if (options.signal?.aborted === true) throw new ToolError(`fetching ${url.href} was interrupted`);
    if (error instanceof ToolError) throw error;
    const cause = error instanceof Error ? error.message : String(error);
    throw new ToolError(`could not fetch ${url.href}: ${cause}`);
  }
}

function httpUrl(given: string): URL {
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    throw new ToolError(`"${given}" is not a URL: give a full http:// or https:// address`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ToolError(`${url.protocol} URLs are not fetched: give an http:// or https:// address`);
  }
  if (url.username !== "" || url.password !== "") {
    throw new ToolError("URLs with a user name or password are not fetched: web_fetch sends no credentials");
  }
  return url;
}

function redirectTarget(location: string, from: URL): URL {
  let next: URL;
  try {
    next = new URL(location, from);
  } catch {
    throw new ToolError(`${from.href} redirected to "${location}", which is not a URL`);
  }
  if (next.protocol !== "http:" && next.protocol !== "https:") {
    throw new ToolError(`${from.href} redirected to ${next.href}: only http(s) redirects are followed`);
  }
  return next;
}

/** Why this address may not be reached under `options`, or undefined. */
function refusal(address: string, options: FetchOptions): string | undefined {
  if (options.allowPrivate || options.allowedAddresses?.includes(address) === true) return undefined;
  return privateAddressReason(address);
}

function refusedError(host: string, address: string, why: string): ToolError {
  const shown = host === address ? address : `${host} (${address})`;
  return new ToolError(
    `refused: ${shown} is ${why}. web_fetch does not reach the user's own machine or network unless config "web_fetch": {"allow_private": true} says so`,
  );
}

/** A DNS lookup that fails when any address of the name is one `options` refuses. */
function checkedLookup(options: FetchOptions): LookupFunction {
  return (hostname, lookupOptions, callback) => {
    dnsLookup(hostname, { ...lookupOptions, all: true }, (error, found: LookupAddress[]) => {
      if (error !== null) return callback(error, "", 0);
      const bad = found
        .map((entry) => ({ entry, why: refusal(entry.address, options) }))
        .find((item) => item.why);
      if (bad?.why !== undefined) return callback(refusedError(hostname, bad.entry.address, bad.why), "", 0);
      const first = found[0];
      if (first === undefined) return callback(new Error(`${hostname} has no address`), "", 0);
      // Node asks for every address when it tries IPv6 and IPv4 in turn (autoSelectFamily).
      if (lookupOptions.all === true) return (callback as unknown as AllCallback)(null, found);
      return callback(null, first.address, first.family);
    });
  };
}

type AllCallback = (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void;

function request(url: URL, options: FetchOptions, signal: AbortSignal): Promise<IncomingMessage> {
  const bare = url.hostname.replace(/^\[(.*)\]$/, "$1");
  // Node connects to an IP literal without a lookup: check it here.
  if (isIP(bare) !== 0) {
    const why = refusal(bare, options);
    if (why !== undefined) return Promise.reject(refusedError(bare, bare, why));
  }
  const client = url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const outgoing = client.request(url, {
      method: "GET",
      headers: HEADERS,
      // A fresh connection each time: nothing pooled, nothing shared with panto's model requests.
      agent: false,
      lookup: checkedLookup(options),
      signal,
    });
    outgoing.once("response", resolve);
    outgoing.once("error", reject);
    outgoing.end();
  });
}

const TEXT_TYPES =
  /^(text\/|application\/(json|[\w.+-]+\+json|xml|[\w.+-]+\+xml|javascript|ecmascript|x-javascript|x-sh|toml|yaml|x-yaml)\b)/;

/**
 * The page's text, read up to `maxBytes` (then the connection is dropped, the rest never read), or
 * a binary's type and size without reading it.
 */
async function readPage(
  response: IncomingMessage,
  url: string,
  redirects: string[],
  maxBytes: number,
): Promise<FetchedPage> {
  const status = response.statusCode ?? 0;
  const contentType = (response.headers["content-type"] ?? "").trim();
  const mediaType = contentType.split(";")[0]?.trim().toLowerCase() ?? "";
  if (mediaType !== "" && !TEXT_TYPES.test(mediaType)) {
    response.destroy();
    const length = Number(response.headers["content-length"]);
    return {
      kind: "binary",
      url,
      redirects,
      status,
      contentType,
      size: Number.isFinite(length) ? length : undefined,
    };
  }
  const { bytes, cut } = await readBounded(decoded(response), maxBytes);
  response.destroy();
  if (mediaType === "" && looksBinary(bytes.subarray(0, BINARY_SNIFF_BYTES))) {
    return {
      kind: "binary",
      url,
      redirects,
      status,
      contentType: "(no type given)",
      size: cut ? undefined : bytes.length,
    };
  }
  return {
    kind: "text",
    url,
    redirects,
    status,
    statusText: response.statusMessage ?? "",
    contentType: contentType === "" ? "(no type given)" : contentType,
    text: decodeText(bytes, contentType),
    cut,
  };
}

function decoded(response: IncomingMessage): Readable {
  const encoding = (response.headers["content-encoding"] ?? "identity").trim().toLowerCase();
  if (encoding === "identity" || encoding === "") return response;
  const decoder =
    encoding === "gzip" || encoding === "x-gzip"
      ? createGunzip()
      : encoding === "deflate"
        ? createInflate()
        : encoding === "br"
          ? createBrotliDecompress()
          : undefined;
  if (decoder === undefined) {
    response.destroy();
    throw new ToolError(`the server sent the body in an encoding panto cannot read (${encoding})`);
  }
  response.on("error", (error) => decoder.destroy(error));
  return response.pipe(decoder);
}

/** At most `maxBytes` of the stream; a compressed body is bounded after decompression (no zip bomb). */
async function readBounded(stream: Readable, maxBytes: number): Promise<{ bytes: Buffer; cut: boolean }> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    const buffer = chunk as Buffer;
    if (total + buffer.length > maxBytes) {
      chunks.push(buffer.subarray(0, maxBytes - total));
      stream.destroy();
      return { bytes: Buffer.concat(chunks), cut: true };
    }
    chunks.push(buffer);
    total += buffer.length;
  }
  return { bytes: Buffer.concat(chunks), cut: false };
}

function decodeText(bytes: Buffer, contentType: string): string {
  const charset = /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType)?.[1] ?? "utf-8";
  try {
    return new TextDecoder(charset).decode(bytes);
  } catch {
    // An unknown charset label: UTF-8 reads most of the web.
    return new TextDecoder("utf-8").decode(bytes);
  }
}
