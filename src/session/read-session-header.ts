import type { FileHandle } from "node:fs/promises";
import { readExactly } from "./read-lines-backward.js";
import { SESSION_VERSION, type SessionHeader } from "./session-entries.js";
import { SessionError } from "./session-error.js";

/** A header is one short line; anything longer than this without a newline is not a header. */
const HEADER_READ_BYTES = 64 * 1024;

/** The parsed header and the offset of the byte after its line. */
export interface HeaderRead {
  header: SessionHeader;
  /** Where the first entry starts (the file size when the header has no "\n" after it). */
  end: number;
}

function headerError(path: string, what: string): SessionError {
  return new SessionError(path, `${path}, line 1: ${what}; this is not a panto session file`, { line: 1 });
}

function isText(value: unknown): value is string {
  return typeof value === "string" && value !== "";
}

/** Checks a parsed line 1, throwing a SessionError that names the file and line. */
export function validateHeader(path: string, value: unknown): SessionHeader {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw headerError(path, "the header is not a JSON object");
  }
  const header = value as Record<string, unknown>;
  if (header.type !== "session") throw headerError(path, 'the header\'s type is not "session"');
  const version = header.version;
  if (typeof version !== "number" || !Number.isInteger(version) || version < 1) {
    throw headerError(path, "the header has no valid version");
  }
  if (version > SESSION_VERSION) {
    throw new SessionError(
      path,
      `${path} was written by a newer panto (session version ${version}); this panto reads version ${SESSION_VERSION}`,
      { line: 1 },
    );
  }
  if (!isText(header.id) || !isText(header.created) || typeof header.cwd !== "string") {
    throw headerError(path, "the header lacks id, created or cwd");
  }
  if (header.parent !== undefined) checkParent(path, header.parent);
  return header as unknown as SessionHeader;
}

/** A parent must name a session (id, path) and how the child relates to it; `turn` is optional. */
function checkParent(path: string, parent: unknown): void {
  const value = parent as Record<string, unknown> | null;
  const problem =
    typeof value !== "object" || value === null || Array.isArray(value)
      ? "is not a JSON object"
      : !isText(value.id) || !isText(value.path) || !isText(value.relation)
        ? "lacks id, path or relation"
        : value.turn !== undefined && !(Number.isInteger(value.turn) && (value.turn as number) >= 1)
          ? "has a turn that is not a positive whole number"
          : undefined;
  if (problem !== undefined)
    throw new SessionError(path, `${path}, line 1: the header's "parent" ${problem}`, { line: 1 });
}

/** Reads and validates line 1 of a non-empty session file. */
export async function readSessionHeader(path: string, file: FileHandle, size: number): Promise<HeaderRead> {
  const buffer = Buffer.allocUnsafe(Math.min(size, HEADER_READ_BYTES));
  await readExactly(file, buffer, 0);
  const newline = buffer.indexOf(0x0a);
  if (newline === -1 && size > buffer.length) throw headerError(path, "line 1 is too long to be a header");
  // An editor may have saved the file with a UTF-8 byte order mark: it is not part of the JSON.
  const text = buffer
    .subarray(0, newline === -1 ? buffer.length : newline)
    .toString("utf8")
    .replace(/^\uFEFF/, "");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw headerError(path, "the header is not valid JSON");
  }
  return { header: validateHeader(path, value), end: newline === -1 ? size : newline + 1 };
}
