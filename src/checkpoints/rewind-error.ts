/** A rewind that cannot be made as asked (no such turn, nothing to undo, code not recorded): a usage error. */
export class RewindError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RewindError";
  }
}

/** Whether `error` is a RewindError. */
export function isRewindError(error: unknown): error is RewindError {
  return error instanceof RewindError;
}
