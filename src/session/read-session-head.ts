import type { FileHandle } from "node:fs/promises";
import { isUserMessageStart } from "./count-session-entries.js";
import { readExactly } from "./read-lines-backward.js";
import { validateHeader } from "./read-session-header.js";
import type { SessionHeader } from "./session-entries.js";
import { SessionError } from "./session-error.js";

/** The bounded first chunk a listing reads: the header and, nearly always, the first prompt. */
export const HEAD_BYTES = 64 * 1024;

export interface SessionHead {
  header: SessionHeader;
  /** Offset of the first entry. */
  headerEnd: number;
  /** Text of the first user message, if one starts in the first chunk. */
  firstPrompt?: string;
}

/** Reads the header and the first user message's text from the first HEAD_BYTES of a session file. */
export async function readSessionHead(path: string, file: FileHandle, size: number): Promise<SessionHead> {
  const buffer = Buffer.allocUnsafe(Math.min(size, HEAD_BYTES));
  await readExactly(file, buffer, 0);
  const text = buffer.toString("utf8");
  const lines = text.split("\n");
  const first = lines[0] ?? "";
  if (lines.length === 1 && size > buffer.length)
    throw new SessionError(path, `${path}, line 1: too long to be a session header`, { line: 1 });
  let value: unknown;
  try {
    value = JSON.parse(first);
  } catch {
    throw new SessionError(path, `${path}, line 1: the header is not valid JSON`, { line: 1 });
  }
  const head: SessionHead = {
    header: validateHeader(path, value),
    headerEnd: Math.min(size, Buffer.byteLength(first, "utf8") + 1),
  };
  const userLine = lines.slice(1).findIndex(isUserMessageStart);
  if (userLine === -1) return head;
  // The last piece of the chunk may be a line cut off by the chunk's end (a long first prompt).
  const complete = userLine + 1 < lines.length - 1 || text.endsWith("\n");
  const prompt = promptText(lines[userLine + 1] ?? "", complete);
  return prompt === undefined ? head : { ...head, firstPrompt: prompt };
}

/** The text blocks of a user message line; from a cut-off line, the text of its first block so far. */
function promptText(line: string, complete: boolean): string | undefined {
  if (complete) {
    try {
      const entry = JSON.parse(line) as { message?: { content?: Array<{ type?: string; text?: string }> } };
      const texts = (entry.message?.content ?? []).flatMap((block) =>
        block.type === "text" && typeof block.text === "string" ? [block.text] : [],
      );
      return texts.join("\n");
    } catch {
      return undefined;
    }
  }
  const start = /"content":\[\{"type":"text","text":"/.exec(line);
  if (start === null) return undefined;
  // Drop a trailing partial escape so the JSON string literal parses.
  const body = line.slice(start.index + start[0].length).replace(/\\u?[0-9a-fA-F]{0,3}$|\\$/, "");
  const closed = /^((?:[^"\\]|\\.)*)/.exec(body)?.[1] ?? "";
  try {
    return JSON.parse(`"${closed}"`) as string;
  } catch {
    return undefined;
  }
}
