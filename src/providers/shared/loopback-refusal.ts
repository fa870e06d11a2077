import { PantoError } from "../../core/index.js";

/** Local model servers by their default port, named as the user starts them. */
const LOCAL_SERVERS: Readonly<Record<string, string>> = {
  "11434": "`ollama serve`",
  "1234": "LM Studio's local server",
  "8080": "`llama-server`",
  "8000": "`vllm serve`",
};

/**
 * A refused connection to this machine (127.0.0.0/8, ::1, localhost) as an error that is not
 * retried: nothing listens there, and waiting will not start it. It names the address and the
 * likely cause. Any other error, or a refusal from another host (which may be a restart or a load
 * balancer in between), comes back undefined and keeps its retries.
 */
export function loopbackRefusal(error: PantoError, baseURL: string): PantoError | undefined {
  if (error.code !== "network" || !refused(error.cause)) return undefined;
  const url = parseURL(baseURL);
  if (url === undefined || !isLoopbackHost(url.hostname)) return undefined;
  const where = `${url.protocol}//${url.host}`;
  const provider = error.provider ?? "provider";
  return new PantoError(
    "network",
    `${provider}: nothing is listening on ${where}: is ${likelyServer(url, provider)} running? (connection refused; not retried)`,
    { retryable: false, nothingListening: true, provider, cause: error.cause },
  );
}

/** Whether `hostname` (as `URL` gives it: IPv6 in brackets) is an address of this machine. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, "");
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  if (host === "::1" || host === "0:0:0:0:0:0:0:1") return true;
  const v4 = host.startsWith("::ffff:") ? host.slice("::ffff:".length) : host;
  return /^127(?:\.\d{1,3}){3}$/.test(v4);
}

function likelyServer(url: URL, provider: string): string {
  if (/ollama/i.test(provider)) return LOCAL_SERVERS["11434"] as string;
  if (/lm-?studio/i.test(provider)) return LOCAL_SERVERS["1234"] as string;
  return LOCAL_SERVERS[url.port] ?? "the local model server";
}

/**
 * ECONNREFUSED anywhere in the cause chain, or in every attempt of an AggregateError (Node tries
 * both ::1 and 127.0.0.1 for "localhost").
 */
function refused(error: unknown, depth = 0): boolean {
  if (!(error instanceof Error) || depth > 5) return false;
  if ((error as { code?: unknown }).code === "ECONNREFUSED") return true;
  if (error instanceof AggregateError && error.errors.length > 0)
    return error.errors.every((inner) => refused(inner, depth + 1));
  return refused(error.cause, depth + 1);
}

function parseURL(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}
