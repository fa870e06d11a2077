/**
 * A session could not start: the model, its key, the config, the session named, the sandbox. The
 * message says what to fix (as the CLI's exit-2 errors do); `code` is the CLI's `error` event code
 * ("config", "auth", "session", "sandbox", "path", "usage").
 */
export class PantoSetupError extends Error {
  readonly code: string;

  constructor(message: string, code: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "PantoSetupError";
    this.code = code;
  }
}
