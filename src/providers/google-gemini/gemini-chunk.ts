import type { GenerateContentResponse } from "@google/genai";
import { providerErrorFromResponse } from "../provider-error.js";

/** The fields of one streamed response that the reader reads; checked (checkGeminiChunk) before it trusts them. */
export type GeminiChunk = Pick<GenerateContentResponse, "candidates" | "promptFeedback" | "usageMetadata">;

/**
 * The response one payload carries, read the way the SDK read it so that the reader sees what it
 * saw. A payload with an `error` holding a numeric HTTP error code ends the stream, and so does text
 * that is no JSON: both classified from the payload verbatim, without a status. Of the rest, only
 * `candidates`, `promptFeedback` and `usageMetadata` are kept, and of each candidate its `content`
 * and `finishReason`, a null counting as absent; a payload that is no object is an empty response
 * (a keepalive).
 */
export function payloadChunk(payload: string, provider: string): GeminiChunk {
  let value: unknown;
  try {
    value = parsePayload(payload);
  } catch {
    throw providerErrorFromResponse({ body: payload, provider });
  }
  if (raisesError(value)) throw providerErrorFromResponse({ body: payload, provider });
  if (!isObject(value)) return {};
  const { candidates, promptFeedback, usageMetadata } = value;
  return {
    ...(candidates === undefined || candidates === null
      ? {}
      : { candidates: Array.isArray(candidates) ? candidates.map(candidateOf) : candidates }),
    ...present("promptFeedback", promptFeedback),
    ...present("usageMetadata", usageMetadata),
  } as GeminiChunk;
}

/**
 * Whether a payload is an error rather than a response: an object with an `error` (possibly inside
 * an array), or text that is no JSON. Such a payload the stream carried explains a stream that ends
 * without a finishReason, even when it did not end the stream itself (a gateway that nests the
 * error, wraps it in an array or gives it no numeric code).
 */
export function isErrorPayload(payload: string): boolean {
  try {
    const value: unknown = JSON.parse(payload);
    const first: unknown = Array.isArray(value) ? value[0] : value;
    return typeof first === "object" && first !== null && "error" in first;
  } catch {
    return payload.trim() !== "";
  }
}

/**
 * The payload as JSON. The SDK read each event's data as one line, so a payload whose line breaks
 * make it invalid JSON (data lines that split a string) is read again with them as spaces.
 */
function parsePayload(payload: string): unknown {
  try {
    return JSON.parse(payload);
  } catch {
    return JSON.parse(payload.replace(/\r?\n|\r/g, " ").trim());
  }
}

/** An `error` object with a numeric HTTP error code: what made the SDK end the stream. */
function raisesError(value: unknown): boolean {
  if (!isObject(value) || !("error" in value)) return false;
  const { error } = value;
  if (!isObject(error)) return false;
  const { code } = error;
  return typeof code === "number" && code >= 400 && code < 600;
}

function candidateOf(candidate: unknown): Record<string, unknown> {
  if (!isObject(candidate)) return {};
  return { ...present("content", candidate.content), ...present("finishReason", candidate.finishReason) };
}

function present(key: string, value: unknown): Record<string, unknown> {
  return value === undefined || value === null ? {} : { [key]: value };
}

/** Anything `typeof` calls an object, arrays included, as the SDK looked fields up (an array has none of these). */
function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}
