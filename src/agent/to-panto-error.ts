import { PantoError } from "../core/index.js";

/** Anything a request or a tool round threw, as a PantoError: "aborted" when the signal fired. */
export function toPantoError(thrown: unknown, signal: AbortSignal | undefined): PantoError {
  if (thrown instanceof PantoError) return thrown;
  if (signal?.aborted) return new PantoError("aborted", "interrupted", { cause: thrown });
  const message = thrown instanceof Error ? thrown.message : String(thrown);
  return new PantoError("other", message, { cause: thrown });
}
