/** Why a checkpoint could not be taken or read; the message is shown after "checkpoints unavailable: ". */
export class CheckpointError extends Error {
  /** True when git itself could not be started: file checkpoints still work, workspace ones do not. */
  readonly gitMissing: boolean;

  constructor(message: string, options: { cause?: unknown; gitMissing?: boolean } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "CheckpointError";
    this.gitMissing = options.gitMissing ?? false;
  }
}

/** The text of any failure, for a checkpoint's `error`. */
export function describeCheckpointFailure(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
