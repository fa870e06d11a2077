import type { PantoConfig } from "../config/index.js";
import type { SandboxMode } from "../core/index.js";
import type { PantoEvent } from "../frontends/json/json-event-schema.js";

/** A tool call waiting for approval: the `permission_request` event stream-json writes. */
export type PermissionRequest = Extract<PantoEvent, { type: "permission_request" }>;

/** The answer to one: this call, this tool for the rest of the session, or no. */
export type PermissionDecision = "allow" | "allow_always" | "deny";

/**
 * Decides a tool call that needs the user's approval (one neither `allowTools` nor a permission
 * rule decided). A callback that throws or answers something else denies the call (a `warning`
 * event says why). A request to leave the sandbox is asked every time, `allow_always` or not.
 */
export type PermissionCallback = (
  request: PermissionRequest,
) => PermissionDecision | Promise<PermissionDecision>;

/** What `createPanto` takes: where sessions run and how, as the command line's flags would say. */
export interface PantoOptions {
  /** The folder the sessions work in (the project is found from it, as the CLI finds it). Default: process.cwd(). */
  cwd?: string;
  /** "provider/model" (`-m`); else a resumed session's, config's, or the default for the key found. */
  model?: string;
  /**
   * Settings in the shape of a config file, winning over the user's and the project's files (never
   * over managed settings); validated as a file is, named "createPanto({ config })" in errors.
   */
  config?: PantoConfig;
  /**
   * The environment: `PANTO_HOME`, the provider keys and base URLs, `HOME`, as the CLI reads them.
   * Default: process.env.
   */
  env?: NodeJS.ProcessEnv;
  /** Asked about each tool call that needs approval; without it, print mode's rules: such calls are denied. */
  onPermission?: PermissionCallback;
  /** Every tool call runs without a question (`--allow-tools`); a request to leave the sandbox still asks. */
  allowTools?: boolean;
  /** How the model's tools are confined (`--sandbox`); else config `sandbox`, else workspace-write. */
  sandbox?: SandboxMode;
  /** Model requests one prompt may make (`--max-turns`); the turn then ends with exit code 3. */
  maxTurns?: number;
  /**
   * Hears every event of every session as it happens, with the session it belongs to: a turn's
   * events as its stream yields them, and those that come while no turn runs (a compaction
   * prepared in the background, a context warning), which a stream yields only when the next turn
   * starts. A listener that throws is not called again for that event; the session goes on.
   */
  onEvent?: (event: PantoEvent, session: { id: string }) => void;
}

/** What `run` and `stream` take besides the prompt. */
export interface TurnOptions {
  /** Aborting it ends the turn: its request, tools and any open permission question (exit code 130). */
  signal?: AbortSignal;
}
