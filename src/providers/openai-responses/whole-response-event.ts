import type {
  ResponseStreamEvent,
  Response as ResponsesResponse,
} from "openai/resources/responses/responses";
import { providerErrorFromResponse } from "../provider-error.js";

/**
 * A 200 JSON body (a server that ignored `stream: true`) as the terminal event that would have
 * ended its stream: a response object becomes response.completed, .incomplete or .failed by its
 * status, so the stream reader handles it; anything else (a gateway's error) is classified.
 */
export function wholeResponseEvent(text: string, provider: string): ResponseStreamEvent {
  const body: unknown = JSON.parse(text);
  if (!isResponseObject(body)) throw providerErrorFromResponse({ body: text, provider });
  const response = body as ResponsesResponse;
  const status: unknown = response.status;
  const type =
    status === "failed"
      ? "response.failed"
      : status === "incomplete"
        ? "response.incomplete"
        : "response.completed";
  return { type, response, sequence_number: 0 } as ResponseStreamEvent;
}

function isResponseObject(body: unknown): boolean {
  if (typeof body !== "object" || body === null) return false;
  const candidate = body as { object?: unknown; output?: unknown };
  return candidate.object === "response" || Array.isArray(candidate.output);
}
