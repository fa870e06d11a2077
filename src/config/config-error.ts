/**
 * A usage or configuration problem the user must fix (exit status 2). The message names the file
 * and the key, so it can be shown as is.
 */
export class ConfigError extends Error {
  readonly file?: string;
  /** Dotted key path of the (first) offending key, e.g. "providers.local.base_url". */
  readonly key?: string;

  constructor(message: string, options: { file?: string; key?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ConfigError";
    if (options.file !== undefined) this.file = options.file;
    if (options.key !== undefined) this.key = options.key;
  }
}

export function isConfigError(value: unknown): value is ConfigError {
  return value instanceof ConfigError;
}
