import { UsageError } from "../../cli/exit-status.js";
import { ConfigError } from "../../config/index.js";
import { isPantoError } from "../../core/index.js";
import { SessionError } from "../../session/index.js";

/** Runs one setup step, turning configuration-class failures into a UsageError (exit status 2). */
export async function setupStep<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    throw asUsageError(error) ?? error;
  }
}

/** Config, session and model-setup errors are the user's to fix: usage errors. */
export function asUsageError(error: unknown): UsageError | undefined {
  if (error instanceof UsageError) return error;
  if (error instanceof ConfigError) return new UsageError(error.message, "config", { cause: error });
  if (error instanceof SessionError) return new UsageError(error.message, "session", { cause: error });
  if (isPantoError(error)) return new UsageError(error.message, error.code, { cause: error });
  return undefined;
}
