import type { ImageBlock, TextBlock, ToolDefinition } from "../core/index.js";
import type { ToolSandbox } from "../sandbox/index.js";
import type { FileAccess } from "./file-access.js";
import type { FileChange } from "./file-change.js";

/** Where a tool runs and how to cancel it. */
export interface ToolContext {
  /** Directory that relative paths and commands resolve against. */
  cwd: string;
  signal?: AbortSignal;
  /**
   * How `read`, `write` and `edit` reach text files (an editor's buffers over ACP) when there is no
   * sandbox (see frontEndFiles); absent, or in a sandbox, the local file system. Images, listings
   * and searches always read the local disk.
   */
  files?: FileAccess;
  /** Told what `write` and `edit` changed (whole texts before and after), once the file is written. */
  onFileChange?: (change: FileChange) => void;
  /**
   * The sandbox the call runs in, absent for an unconfined call (`--sandbox full`, the user's own
   * `!cmd`, an escape the user allowed). The file tools check every path against it before
   * touching anything; `bash` starts its command through it.
   */
  sandbox?: ToolSandbox;
  /** The id of the tool call being run, for tools that report progress under it (`task`). */
  callId?: string;
  /**
   * The permission rule that denies reading this file (an absolute path, symlinks resolved), if
   * any: `grep` does not search such files and `glob` does not list them, so a deny rule on `read`
   * holds for what the searches show too. Absent: no rule denies a read.
   */
  readDenied?: (path: string) => string | undefined;
}

/** What a tool hands back to the model. Expected failures are outputs with `isError`, never exceptions. */
export interface ToolOutput {
  content: Array<TextBlock | ImageBlock>;
  isError: boolean;
}

/** "read" tools run freely; "write" and "exec" need the user's permission (asked by the agent/CLI). */
export type ToolKind = "read" | "write" | "exec";

/** A tool the model can call. */
export interface Tool {
  definition: ToolDefinition;
  /** "read" tools run freely; "write" and "exec" need permission. */
  kind: ToolKind;
  /**
   * Set on a tool that confines itself with `ToolContext.sandbox` (bash): inside a sandbox its calls
   * need no question (unless the policy asks for one), and `escapeReason` says when a call asks to
   * run outside it instead, which always needs the user's yes.
   */
  confinable?: { escapeReason(args: Record<string, unknown>): string | undefined };
  /**
   * Calls of this tool in one round may run at the same time as each other (`task`: each child
   * works on its own session); other tools run one after another, in order.
   */
  concurrent?: boolean;
  /** Its own time limit, instead of the configured `tool_deadline_ms` (a child agent runs for long). */
  deadlineMs?: number;
  execute(args: Record<string, unknown>, context: ToolContext): Promise<ToolOutput>;
}
