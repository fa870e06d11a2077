import type { ImageBlock, TextBlock, ToolDefinition } from "../core/index.js";
import type { FileAccess } from "./file-access.js";
import type { FileChange } from "./file-change.js";

/** Where a tool runs and how to cancel it. */
export interface ToolContext {
  /** Directory that relative paths and commands resolve against. */
  cwd: string;
  signal?: AbortSignal;
  /**
   * How `read`, `write` and `edit` reach text files (an editor's buffers over ACP); absent, the
   * local file system. Images, listings and searches always read the local disk.
   */
  files?: FileAccess;
  /** Told what `write` and `edit` changed (whole texts before and after), once the file is written. */
  onFileChange?: (change: FileChange) => void;
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
  execute(args: Record<string, unknown>, context: ToolContext): Promise<ToolOutput>;
}
