import type { SecretRedactor } from "../../secrets/index.js";

/** The process as the CLI sees it: where it runs, its environment and its three streams. */
export interface CliIo {
  cwd: string;
  env: NodeJS.ProcessEnv;
  version: string;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  /** The secrets known so far; startRun adds those config reveals. runCli makes one when absent. */
  secrets?: SecretRedactor;
}
