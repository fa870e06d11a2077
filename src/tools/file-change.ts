/**
 * A change a `write` or `edit` call makes to one file: its whole text before (undefined for a new
 * file) and after, and the first line that differs, so a front-end can show the real diff and
 * follow the edit.
 */
export interface FileChange {
  /** Absolute. */
  path: string;
  oldText: string | undefined;
  newText: string;
  /** 1-based line of the first difference (1 for a new file). */
  line: number;
}

/** Builds a FileChange, finding the first line where the two texts differ. */
export function fileChange(path: string, oldText: string | undefined, newText: string): FileChange {
  return { path, oldText, newText, line: firstChangedLine(oldText ?? "", newText) };
}

/** 1-based line of the first character where `before` and `after` differ (1 when they do not). */
export function firstChangedLine(before: string, after: string): number {
  const length = Math.min(before.length, after.length);
  let at = 0;
  while (at < length && before.charCodeAt(at) === after.charCodeAt(at)) at += 1;
  if (at === before.length && at === after.length) return 1;
  let line = 1;
  for (let index = 0; index < at; index += 1) if (before.charCodeAt(index) === 10) line += 1;
  return line;
}
