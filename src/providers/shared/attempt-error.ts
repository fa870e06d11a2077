import { PantoError } from "../../core/index.js";
import { networkError, otherError } from "../provider-error.js";
import { isNetworkFailure } from "./is-network-failure.js";

/**
 * Classifies what one attempt posted through postJson threw: HTTP errors, error events and
 * malformed answers are already PantoErrors (and so is a connection that never answered); a
 * connection failing while the body is read is a retryable network error; anything else is not
 * retried.
 */
export function attemptErrorToPanto(error: unknown, provider: string): PantoError {
  if (error instanceof PantoError) return error;
  if (isNetworkFailure(error)) return networkError(provider, error, "stream failed");
  return otherError(provider, error);
}
