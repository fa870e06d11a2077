import { ToolError } from "./tool-error.js";

const FS_ERROR_TEXT: Record<string, string> = {
  ENOENT: "not found",
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  EISDIR: "is a directory",
  ENOTDIR: "a parent of it is not a directory",
  EEXIST: "already exists",
  ENOSPC: "no space left on device",
  EROFS: "read-only file system",
};

/** One line for the model about why an operation on `displayPath` failed. */
export function describeError(error: unknown, displayPath?: string): string {
  if (error instanceof ToolError) return error.message;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const known = code === undefined ? undefined : FS_ERROR_TEXT[code];
  if (known !== undefined && displayPath !== undefined) return `${displayPath}: ${known} (${code})`;
  return error instanceof Error ? error.message : String(error);
}

/** The error a tool throws when `verb`ing `displayPath` failed: a ToolError as it is, else "Cannot verb why". */
export function toolFailure(verb: string, error: unknown, displayPath: string): ToolError {
  if (error instanceof ToolError) return error;
  return new ToolError(`Cannot ${verb} ${describeError(error, displayPath)}`);
}

/** The error a tool throws when the front-end's file access failed for `displayPath` (its message says why). */
export function fileAccessFailure(verb: string, error: unknown, displayPath: string): ToolError {
  if (error instanceof ToolError) return error;
  const why = error instanceof Error ? error.message : String(error);
  return new ToolError(`Cannot ${verb} ${displayPath}: ${why}`);
}
