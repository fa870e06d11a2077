import { PantoError } from "../../core/index.js";

/**
 * The error for an answer that breaks its wire format's promises (a field missing or of the wrong
 * type, as a broken proxy or a half-compatible server sends): the request fails with a message
 * naming what was wrong, instead of a TypeError deep in a reader or a malformed message in the
 * session. Not retried: the same server answers the same way.
 */
export function malformedAnswer(provider: string, what: string): PantoError {
  return new PantoError("other", `${provider}: the server's answer is malformed: ${what}`, { provider });
}

/** JSON.parse for one event's data, failing as a malformed answer rather than a bare SyntaxError. */
export function parseWireJson(text: string, provider: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw malformedAnswer(provider, `${what} that is not JSON: ${text.slice(0, 80)}`);
  }
}
