import { open } from "node:fs/promises";

/** One line of a session file and its 1-based number. */
export interface NumberedLine {
  line: number;
  text: string;
}

const READ_BYTES = 1024 * 1024;
const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/**
 * The lines of a file, split on "\n" as the session package splits them (a "\r" before it is
 * dropped), read 1 MB at a time so memory stays flat however long the file is. Each line is
 * decoded on its own: invalid UTF-8 becomes U+FFFD. Blank lines are skipped (but counted).
 */
export async function* readLines(path: string): AsyncGenerator<NumberedLine> {
  const file = await open(path, "r");
  try {
    let line = 0;
    let carry: Buffer = Buffer.alloc(0);
    const chunk = Buffer.allocUnsafe(READ_BYTES);
    for (;;) {
      const { bytesRead } = await file.read(chunk, 0, READ_BYTES, null);
      if (bytesRead === 0) break;
      const buffer =
        carry.length === 0
          ? chunk.subarray(0, bytesRead)
          : Buffer.concat([carry, chunk.subarray(0, bytesRead)]);
      let start = 0;
      for (let end = buffer.indexOf(NEWLINE); end !== -1; end = buffer.indexOf(NEWLINE, start)) {
        line++;
        const text = decodeLine(buffer, start, end);
        start = end + 1;
        if (text.trim() !== "") yield { line, text };
      }
      carry = Buffer.from(buffer.subarray(start));
    }
    if (carry.length > 0) {
      const text = decodeLine(carry, 0, carry.length);
      if (text.trim() !== "") yield { line: line + 1, text };
    }
  } finally {
    await file.close();
  }
}

function decodeLine(buffer: Buffer, start: number, end: number): string {
  const last = end > start && buffer[end - 1] === CARRIAGE_RETURN ? end - 1 : end;
  return buffer.toString("utf8", start, last);
}
