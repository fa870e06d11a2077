import { ConfigError } from "../../config/index.js";
import { isPantoError, isPathProblem } from "../../core/index.js";
import { SandboxError } from "../../sandbox/sandbox-error.js";
import { SessionError } from "../../session/index.js";

/**
 * A mistake in how panto was invoked or configured, found before any model call. The message is
 * shown as is; the CLI exits with status 2 for it.
 */
export class UsageError extends Error {
  /** Short machine-readable kind for `--json` error events, e.g. "usage", "config", "session". */
  readonly kind: string;

  constructor(message: string, kind = "usage", options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "UsageError";
    this.kind = kind;
  }
}

/**
 * No model chosen: none given, none in config, no provider key set. A configuration error (kind
 * "config", exit 2) that an editor shows as authentication required.
 */
export class NoModelError extends UsageError {
  constructor(message: string) {
    super(message, "config");
    this.name = "NoModelError";
  }
}

/** Runs one setup step, turning configuration-class failures into a UsageError. */
export async function setupStep<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    throw asUsageError(error) ?? error;
  }
}

/** Config, sandbox, session and model-setup errors are the user's to fix: usage errors. */
export function asUsageError(error: unknown): UsageError | undefined {
  if (error instanceof UsageError) return error;
  if (error instanceof ConfigError) return new UsageError(error.message, "config", { cause: error });
  if (error instanceof SandboxError) return new UsageError(error.message, "sandbox", { cause: error });
  if (error instanceof SessionError) return new UsageError(error.message, "session", { cause: error });
  if (isPathProblem(error)) return new UsageError(error.message, "path", { cause: error });
  if (isPantoError(error)) return new UsageError(error.message, error.code, { cause: error });
  return undefined;
}
