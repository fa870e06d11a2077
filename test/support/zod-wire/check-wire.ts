// A verbatim copy of src/providers/shared/check-wire.ts as it was when the adapters checked stream
// events with zod: the reference the hand-written shape checks are compared with (the other files
// here are the four adapters' zod checks of that time, verbatim but for their imports).
import type { z } from "zod";
import { PantoError } from "../../../src/core/index.js";

/**
 * The error for an answer that breaks its wire format's promises (a field missing or of the wrong
 * type, as a broken proxy or a half-compatible server sends): the request fails with a message
 * naming what was wrong, instead of a TypeError deep in a reader or a malformed message in the
 * session. Not retried: the same server answers the same way.
 */
export function malformedAnswer(provider: string, what: string): PantoError {
  return new PantoError("other", `${provider}: the server's answer is malformed: ${what}`, { provider });
}

/**
 * Checks `value` against `schema` and returns it as it is (not zod's copy, so nothing is stripped
 * or converted), or throws {@link malformedAnswer} naming `what` and the first problem's path.
 */
export function checkWire<T>(schema: z.ZodType, value: unknown, provider: string, what: string): T {
  const result = schema.safeParse(value);
  if (result.success) return value as T;
  const issue = result.error.issues[0];
  const path = issue === undefined || issue.path.length === 0 ? "" : ` at ${issue.path.join(".")}`;
  throw malformedAnswer(provider, `${what}${path}: ${issue?.message ?? "unexpected shape"}`);
}

/** JSON.parse for one event's data, failing as a malformed answer rather than a bare SyntaxError. */
export function parseWireJson(text: string, provider: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw malformedAnswer(provider, `${what} that is not JSON: ${text.slice(0, 80)}`);
  }
}
