import { appendFile, open, truncate, writeFile } from "node:fs/promises";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { openSession } from "../../src/session/index.js";
import { readActiveSuffix } from "../../src/session/read-active-suffix.js";
import { type BackwardLine, readLinesBackward } from "../../src/session/read-lines-backward.js";
import { useSessionSandbox } from "../support/session-sandbox.js";
import {
  assistant,
  header,
  jsonl,
  messageEntry,
  record,
  stamp,
  user,
  warningSink,
} from "./session-test-helpers.js";

const sandbox = useSessionSandbox();

describe("resuming a big session", () => {
  it("parses only the lines from the latest compaction on, however much history comes before", async () => {
    const path = join(sandbox.dir, "big.jsonl");
    await writeFile(path, jsonl([header()]));
    // 256 MiB of history the resume must never look at: a sparse hole of NUL bytes (one giant
    // unparsable line) followed by garbage lines, then an older compaction.
    await truncate(path, 256 * 1024 * 1024);
    const suffix = [
      { type: "compaction", ...stamp(), ...record("latest") },
      messageEntry(user("kept")),
      messageEntry(assistant("kept answer")),
      messageEntry(user("new question")),
    ];
    await appendFile(
      path,
      `\n${"garbage that is not JSON\n".repeat(1000)}${jsonl([{ type: "compaction", ...stamp(), ...record("older") }, ...suffix])}`,
    );

    const { warnings, onWarning } = warningSink();
    const session = await openSession(path, { cwd: sandbox.dir, onWarning });
    expect(session.effectiveContext()).toEqual({
      compaction: { type: "compaction", summary: "latest" },
      messages: [user("kept"), assistant("kept answer"), user("new question")],
    });
    expect(session.activeEntries()).toEqual(suffix);
    expect(warnings).toEqual([]);
    await session.close();

    const file = await open(path, "r");
    const read = await readActiveSuffix(path, file, (await file.stat()).size);
    await file.close();
    expect(read.linesRead).toBe(suffix.length);
  });

  it("reads back to the header when there is no compaction, and then names exact line numbers", async () => {
    const path = join(sandbox.dir, "s.jsonl");
    const big = "x".repeat(200_000);
    await writeFile(path, jsonl([header(), messageEntry(user(big)), "oops", messageEntry(user("end"))]));
    const { warnings, onWarning } = warningSink();
    const session = await openSession(path, { cwd: sandbox.dir, onWarning });
    expect(session.effectiveContext().messages).toEqual([user(big), user("end")]);
    expect(warnings).toEqual([
      `${path}: unparsable entry at line 3 (not valid JSON) is skipped and left in the file`,
    ]);
    await session.close();
  });
});

describe("readLinesBackward (property)", () => {
  it("yields exactly the file's lines, last first, with their byte offsets, for any chunk size", async () => {
    const path = join(sandbox.dir, "lines.txt");
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.string({ unit: fc.constantFrom("a", "é", "漢", "😀", " ", "{") }), { maxLength: 12 }),
        fc.boolean(),
        fc.integer({ min: 1, max: 9 }),
        fc.nat(3),
        async (lines, finalNewline, chunkBytes, prefixBytes) => {
          const prefix = "P".repeat(prefixBytes);
          const body = lines.join("\n") + (finalNewline && lines.length > 0 ? "\n" : "");
          await writeFile(path, prefix + body);
          const file = await open(path, "r");
          const seen: BackwardLine[] = [];
          const size = Buffer.byteLength(prefix + body);
          for await (const line of readLinesBackward(file, prefixBytes, size, chunkBytes)) seen.push(line);
          await file.close();
          run++;

          const expected: BackwardLine[] = [];
          let offset = prefixBytes;
          const parts = body === "" ? [] : body.split("\n");
          parts.forEach((text, index) => {
            const last = index === parts.length - 1;
            // Bytes after the last "\n" form a line only when there are some.
            if (!(last && text === "")) expected.push({ text, offset, terminated: !last });
            offset += Buffer.byteLength(text) + 1;
          });
          expect(seen).toEqual(expected.reverse());
        },
      ),
      { numRuns: 300 },
    );
    expect(run).toBe(300);
  });
});
