/**
 * A rewind that cannot be made as asked. "usage": no such turn, nothing to undo (the user asked for
 * something that is not there); "unavailable": the checkpoints cannot restore the files (a snapshot
 * failed or a call ran without one), the conversation alone can still be rewound.
 */
export class RewindError extends Error {
  readonly kind: "usage" | "unavailable";

  constructor(message: string, kind: "usage" | "unavailable" = "usage") {
    super(message);
    this.name = "RewindError";
    this.kind = kind;
  }
}

/** Whether `error` is a RewindError. */
export function isRewindError(error: unknown): error is RewindError {
  return error instanceof RewindError;
}
