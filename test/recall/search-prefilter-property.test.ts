import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { matchBlock } from "../../src/recall/entry-blocks.js";
import { lowerCaseInto } from "../../src/recall/find-needle.js";
import { parseRecallQuery, searchSessions } from "../../src/recall/index.js";
import { useSessionSandbox } from "../support/session-sandbox.js";
import { SessionWriter } from "./recall-fixture.js";

const sandbox = useSessionSandbox();

/** Pieces of text with what JSON escapes, what looks like structure, several scripts and cases. */
const piece = fc.constantFrom(
  "port",
  "Port",
  "PORT",
  "import",
  "report",
  "staging",
  "Stage",
  "db",
  "\n",
  "\t",
  " ",
  "  ",
  '"',
  "\\",
  "\\n",
  "{",
  "}",
  '"type":"message"',
  "é",
  "É",
  "日付",
  "naïve",
  "x_y",
  "a-b",
  "48213",
  "\u0007",
  "ok.",
);
const text = fc.array(piece, { minLength: 1, maxLength: 12 }).map((parts) => parts.join(""));

describe("the raw prefilter", () => {
  it("lower-cases ASCII letters exactly as a byte-by-byte reference does, aligned or not", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.integer({ min: 0, max: 3 }), (bytes, skip) => {
        const source = Buffer.from(bytes).subarray(Math.min(skip, bytes.length));
        const expected = Buffer.from(
          source.map((byte) => (byte >= 0x41 && byte <= 0x5a ? byte | 0x20 : byte)),
        );
        expect(lowerCaseInto({ buffer: Buffer.alloc(0) }, source).equals(expected)).toBe(true);
      }),
    );
  });

  it("loses no hit: the search's hits and count are those of scoring every message with no prefilter", async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(text, { minLength: 1, maxLength: 8 }),
        fc.array(
          fc.constantFrom(
            "port",
            "PORT",
            "stag",
            "staging",
            "db",
            "é",
            "日付",
            '"import report"',
            "48213",
            "x_y",
            "naïve",
          ),
          {
            minLength: 1,
            maxLength: 3,
          },
        ),
        async (prompts, words) => {
          const session = await sandbox.open(join(sandbox.dir, `q${run++}.jsonl`));
          const writer = new SessionWriter(session);
          for (const prompt of prompts) await writer.user(prompt);
          const query = parseRecallQuery(words.join(" "));
          const result = await searchSessions([{ path: session.path, id: "s" }], query, { limit: 20 });
          const expected = prompts
            .map((prompt, index) => ({ turn: index + 1, score: matchBlock(prompt, query.terms).score }))
            .filter((hit) => hit.score > 0)
            .sort((a, b) => b.score - a.score || b.turn - a.turn);
          expect(result.complete).toBe(true);
          expect(result.hits.map((hit) => ({ turn: hit.turn, score: hit.score }))).toEqual(expected);
          expect(result.total).toBe(expected.length);
        },
      ),
      { numRuns: 150 },
    );
  }, 120_000);
});
