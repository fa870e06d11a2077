import type { Stats } from "node:fs";

/** What a path that is not a regular file is, in words ("a folder", "a named pipe (FIFO)"...); undefined for a regular file. */
export function pathKind(info: Stats): string | undefined {
  if (info.isFile()) return undefined;
  if (info.isDirectory()) return "a folder";
  if (info.isFIFO()) return "a named pipe (FIFO)";
  if (info.isSocket()) return "a socket";
  if (info.isCharacterDevice()) return "a character device";
  if (info.isBlockDevice()) return "a block device";
  return "not a regular file";
}
