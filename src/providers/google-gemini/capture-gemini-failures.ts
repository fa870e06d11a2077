import { normalizeGeminiStream } from "./normalize-gemini-stream.js";

/** The raw answer of a failed HTTP request: what the classifier and retry-after need. */
export interface HttpFailure {
  status: number;
  body: string;
  headers: Headers;
}

export interface GeminiFailureCapture {
  readonly fetch: typeof fetch;
  /** The most recent failed HTTP response, if any. */
  httpFailure(): HttpFailure | undefined;
  /** The last payload inside a 200 stream that was an error rather than a chunk, verbatim, if any. */
  streamError(): string | undefined;
}

/**
 * A fetch wrapper for one request attempt that keeps what the Gemini SDK throws away: the raw
 * body and headers of a failed response (its ApiError keeps a re-serialised body and no
 * retry-after, and a JSON-typed body that is not JSON becomes a bare SyntaxError), and any error
 * payload inside the stream, which the SDK only raises when it carries a numeric code: a gateway
 * that nests the error, wraps it in an array or sends it as plain text would otherwise look like
 * a cut-off stream. A successful body is also normalised into the SSE shape the SDK can parse
 * (see `normalizeGeminiStream`), whatever variant the server sent.
 */
export function captureGeminiFailures(baseFetch: typeof fetch = globalThis.fetch): GeminiFailureCapture {
  let httpFailure: HttpFailure | undefined;
  let streamError: string | undefined;
  const capturingFetch: typeof fetch = async (input, init) => {
    const response = await baseFetch(input, init);
    if (!response.ok) {
      httpFailure = {
        status: response.status,
        body: await response.clone().text(),
        headers: response.headers,
      };
      return response;
    }
    if (response.body === null) return response;
    const normalized = normalizeGeminiStream(response.body, (payload) => {
      if (isErrorPayload(payload)) streamError = payload;
    });
    return new Response(normalized, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
  return { fetch: capturingFetch, httpFailure: () => httpFailure, streamError: () => streamError };
}

/** An object with an `error` (possibly inside an array), or text that is no chunk at all. */
function isErrorPayload(payload: string): boolean {
  try {
    const value: unknown = JSON.parse(payload);
    const first: unknown = Array.isArray(value) ? value[0] : value;
    return typeof first === "object" && first !== null && "error" in first;
  } catch {
    return payload.trim() !== "";
  }
}
