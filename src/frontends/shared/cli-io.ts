import type { SecretRedactor } from "../../secrets/index.js";

/** The process as the CLI sees it: where it runs, its environment and its three streams. */
export interface CliIo {
  cwd: string;
  env: NodeJS.ProcessEnv;
  version: string;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  /**
   * All of stdin read at once when it is a regular file or the null device, where a read never
   * waits; undefined otherwise (a pipe, a socket or a terminal is read as the stream). Lets a
   * `-p` run with nothing piped skip making the stdin stream.
   */
  stdinText?: () => string | undefined;
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  /** The secrets known so far; startRun adds those config reveals. runCli makes one when absent. */
  secrets?: SecretRedactor;
}
