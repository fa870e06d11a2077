import { readFile } from "node:fs/promises";

/** Codes meaning "there is no such file": a missing file or a missing (or non-directory) parent. */
const ABSENT = new Set(["ENOENT", "ENOTDIR"]);

/**
 * The file's text, or undefined when it does not exist. Any other failure (EACCES, EISDIR, ...)
 * is rethrown: an override that exists but cannot be read must not be silently skipped.
 */
export async function readOptionalFile(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    if (ABSENT.has((error as NodeJS.ErrnoException).code ?? "")) return undefined;
    throw error;
  }
}

/** "is a directory (EISDIR)" and the like, for messages that already name the file. */
export function describeReadFailure(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "EISDIR") return "it is a directory (EISDIR)";
  if (code === "EACCES" || code === "EPERM") return `permission denied (${code})`;
  return error instanceof Error ? error.message : String(error);
}
