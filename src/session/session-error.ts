/**
 * A session file that cannot be used as asked: a bad or missing header, a header from a newer panto,
 * a session held by another process. Usage/configuration class: the CLI exits with status 2.
 */
export class SessionError extends Error {
  /** The session file concerned. */
  readonly path: string;
  /** 1-based line number, when known. */
  readonly line?: number;

  constructor(path: string, message: string, options: { line?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "SessionError";
    this.path = path;
    if (options.line !== undefined) this.line = options.line;
  }
}

export function isSessionError(value: unknown): value is SessionError {
  return value instanceof SessionError;
}
