import type { SandboxMode } from "../../core/index.js";

/** The parsed command line of a normal run (everything but `panto demo`). */
export interface CliOptions {
  /** True for -p/--print and for --json. */
  print: boolean;
  /** The -p value; undefined means "read the prompt from stdin". */
  prompt?: string;
  json: boolean;
  model?: string;
  session?: string;
  continue: boolean;
  /** -r/--resume: an id prefix or path, or true to pick one. */
  resume?: string | true;
  /** --max-turns: model requests a print or JSON run may make. */
  maxTurns?: number;
  allowTools: boolean;
  /** --plan: start in plan mode (leaving it returns to ask, or allow-all with --allow-tools). */
  plan?: boolean;
  /** --yes: what a command prepares is started without asking (/handoff's new session). */
  yes: boolean;
  /** --sandbox MODE: how the model's tools are confined (else config "sandbox", else workspace-write). */
  sandbox?: SandboxMode;
  /** --allow-unsandboxed: print and JSON modes run the model's escape requests instead of refusing them. */
  allowUnsandboxed?: boolean;
  /** --fork SESSION[@TURN]: continue in a new session started from that one after turn TURN (default: all of it). */
  fork?: { session: string; turn?: number };
  /**
   * --input-format stream-json: one long-lived session reading one JSON message a line on stdin
   * (with --json); absent for the default, text.
   */
  inputFormat?: "stream-json";
  /** --image FILE (repeatable): images sent with the -p prompt, relative to the working directory. */
  images?: readonly string[];
}
