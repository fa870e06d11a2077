import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";

/** One line of a session file and its 1-based number. */
export interface NumberedLine {
  line: number;
  text: string;
}

/**
 * The lines of a file, read as a stream so memory stays flat however long the file is. Invalid
 * UTF-8 decodes to U+FFFD; blank lines are skipped (but counted).
 */
export async function* readLines(path: string): AsyncGenerator<NumberedLine> {
  const input = createReadStream(path, { encoding: "utf8", highWaterMark: 1024 * 1024 });
  const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  let line = 0;
  try {
    for await (const text of lines) {
      line++;
      if (text.trim() !== "") yield { line, text };
    }
  } finally {
    lines.close();
    input.destroy();
  }
}
