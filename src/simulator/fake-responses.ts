import type { ServerResponse } from "node:http";

/** Sends a complete response; JSON bodies are labelled as JSON, anything else as plain text. */
export function sendBody(
  res: ServerResponse,
  status: number,
  body: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { "content-type": isJson(body) ? "application/json" : "text/plain", ...headers });
  res.end(body);
}

/** Sends a JSON value as a 200 response. */
export function sendJson(res: ServerResponse, value: unknown): void {
  sendBody(res, 200, JSON.stringify(value));
}

/** Writes the headers of a server-sent event stream. */
export function startSse(res: ServerResponse): void {
  res.writeHead(200, {
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    connection: "keep-alive",
  });
}

/** Writes one server-sent event: an optional `event:` line and the data as JSON (or verbatim if a string). */
export function writeSse(res: ServerResponse, data: unknown, event?: string): void {
  const payload = typeof data === "string" ? data : JSON.stringify(data);
  res.write(`${event === undefined ? "" : `event: ${event}\n`}data: ${payload}\n\n`);
}

/** Splits text into small pieces so clients see several deltas, as real streams send them. */
export function chunkText(text: string, size = 12): string[] {
  const chunks: string[] = [];
  for (let start = 0; start < text.length; start += size) chunks.push(text.slice(start, start + size));
  return chunks;
}

function isJson(body: string): boolean {
  try {
    JSON.parse(body);
    return true;
  } catch {
    return false;
  }
}
