import { ConfigError } from "../../src/config/config-error.js";
import { ERROR_CODES, PantoError } from "../../src/core/index.js";
import { SessionError } from "../../src/session/session-error.js";
import { InvariantBroken, invariant } from "../engine/fuzz-target.js";

/** The kinds of error a reader may raise on bad input; anything else escaping it is a find. */
export type OwnErrorKind = "panto" | "session" | "config";

/**
 * Checks that `error`, thrown by the code under test, is one of panto's own errors of an allowed
 * kind and carries what callers rely on: a `PantoError` a code from the closed set, a
 * `SessionError` the file it is about, a `ConfigError` the file or key. Every message is non-empty.
 * Anything else (a TypeError, a SyntaxError from JSON.parse, a RangeError...) is rethrown as it
 * is, so the find shows the real stack.
 */
export function expectOwnError(error: unknown, allowed: readonly OwnErrorKind[]): void {
  if (error instanceof InvariantBroken) throw error;
  const kind = ownErrorKind(error);
  if (kind === undefined || !allowed.includes(kind)) throw error;
  invariant((error as Error).message.trim() !== "", `${kind} error with an empty message`);
  if (error instanceof PantoError)
    invariant(
      (ERROR_CODES as readonly string[]).includes(error.code),
      `PantoError with code ${String(error.code)}`,
    );
  if (error instanceof SessionError) invariant(error.path !== "", "SessionError naming no file");
  if (error instanceof ConfigError)
    invariant(error.file !== undefined || error.key !== undefined, "ConfigError naming no file or key");
}

function ownErrorKind(error: unknown): OwnErrorKind | undefined {
  if (error instanceof PantoError) return "panto";
  if (error instanceof SessionError) return "session";
  if (error instanceof ConfigError) return "config";
  return undefined;
}
