import { APIError } from "openai";
import type { ErrorBodyCapture } from "../shared/index.js";

/** Whether a rejected request was a server refusing `stream_options` (some compatible servers do). */
export function rejectsStreamOptions(error: unknown, capture: ErrorBodyCapture): boolean {
  if (!(error instanceof APIError) || (error.status !== 400 && error.status !== 422)) return false;
  return (capture.bodyFor(error.headers) ?? error.message).includes("stream_options");
}
