import { open, readdir } from "node:fs/promises";
import { join } from "node:path";
import type { SessionHeader } from "../session/index.js";

const HEADER_BYTES = 64 * 1024;

/**
 * The session in `directory` imported from `sourcePath` when it held exactly these bytes (its
 * header's parent names the path and the sha256), or undefined. Reads line 1 of each session.
 */
export async function findImportedSession(
  directory: string,
  sourcePath: string,
  sha256: string,
): Promise<{ path: string; id: string } | undefined> {
  let names: string[];
  try {
    names = await readdir(directory);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  for (const name of names.filter((candidate) => candidate.endsWith(".jsonl")).sort()) {
    const path = join(directory, name);
    const header = await readHeader(path);
    const parent = header?.parent;
    if (parent?.relation === "import" && parent.path === sourcePath && parent.sha256 === sha256)
      return { path, id: (header as SessionHeader).id };
  }
  return undefined;
}

/** Line 1 parsed, or undefined for a file that is not a session (the listing reports those). */
async function readHeader(path: string): Promise<SessionHeader | undefined> {
  try {
    const file = await open(path, "r");
    try {
      const buffer = Buffer.alloc(HEADER_BYTES);
      const { bytesRead } = await file.read(buffer, 0, HEADER_BYTES, 0);
      const line = buffer.toString("utf8", 0, bytesRead).split("\n")[0] ?? "";
      const value: unknown = JSON.parse(line);
      return typeof value === "object" && value !== null ? (value as SessionHeader) : undefined;
    } finally {
      await file.close();
    }
  } catch {
    return undefined;
  }
}
