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
 * a cut-off stream.
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
    if (response.body === null || !isEventStream(response)) return response;
    const sniffed = response.body.pipeThrough(sniffErrorEvents((payload) => (streamError = payload)));
    return new Response(sniffed, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
  return { fetch: capturingFetch, httpFailure: () => httpFailure, streamError: () => streamError };
}

function isEventStream(response: Response): boolean {
  return response.headers.get("content-type")?.includes("text/event-stream") ?? false;
}

/** Passes the bytes through untouched, reporting each complete `data:` payload that is an error. */
function sniffErrorEvents(onError: (payload: string) => void): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new TextDecoder();
  let buffer = "";
  return new TransformStream({
    transform(bytes, controller) {
      controller.enqueue(bytes);
      buffer += decoder.decode(bytes, { stream: true });
      const events = buffer.split(/\r?\n\r?\n/);
      buffer = events.pop() ?? "";
      for (const event of events) {
        const payload = /^data:\s?([\s\S]*)$/m.exec(event.trim())?.[1];
        if (payload !== undefined && isErrorPayload(payload)) onError(payload);
      }
    },
  });
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
