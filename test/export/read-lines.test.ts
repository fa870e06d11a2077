import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type NumberedLine, readLines } from "../../src/export/read-lines.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "panto-read-lines-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function linesOf(content: string | Buffer): Promise<NumberedLine[]> {
  const path = join(dir, "session.jsonl");
  await writeFile(path, content);
  const lines: NumberedLine[] = [];
  for await (const line of readLines(path)) lines.push(line);
  return lines;
}

describe("readLines (the export's line reader)", () => {
  it("numbers lines from 1, counts blank lines without yielding them, and keeps a last line with no newline", async () => {
    expect(await linesOf('{"a":1}\n\n  \n{"b":2}\n{"c":3}')).toEqual([
      { line: 1, text: '{"a":1}' },
      { line: 4, text: '{"b":2}' },
      { line: 5, text: '{"c":3}' },
    ]);
  });

  it("drops the carriage return of CRLF line ends", async () => {
    expect(await linesOf("one\r\ntwo\r\n")).toEqual([
      { line: 1, text: "one" },
      { line: 2, text: "two" },
    ]);
  });

  it("joins a line that spans several 1 MB reads, multi-byte characters at the seams included", async () => {
    const long = "é€😀".repeat(200_000);
    const lines = await linesOf(`first\n${long}\nlast\n`);
    expect(lines.map((line) => line.line)).toEqual([1, 2, 3]);
    expect(lines[1]?.text).toBe(long);
    expect(lines[2]?.text).toBe("last");
  });

  it("decodes invalid UTF-8 as U+FFFD on that line only", async () => {
    const lines = await linesOf(
      Buffer.concat([Buffer.from("ok\nbad "), Buffer.from([0xff, 0xfe]), Buffer.from("\nok\n")]),
    );
    expect(lines).toEqual([
      { line: 1, text: "ok" },
      { line: 2, text: "bad \uFFFD\uFFFD" },
      { line: 3, text: "ok" },
    ]);
  });
});
