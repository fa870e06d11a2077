import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ERROR_CODES } from "../../src/core/index.js";
import { classifyProviderError } from "../../src/providers/classify-provider-error.js";

interface FixtureEntry {
  provider: string;
  api: string;
  status: number | null;
  body: string;
  is_overflow: boolean;
  note: string;
  source: string;
  scored?: boolean;
}

function readFixture(url: URL): FixtureEntry[] {
  return readFileSync(url, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as FixtureEntry);
}

function classify(entry: FixtureEntry) {
  return classifyProviderError(
    entry.status === null ? { body: entry.body } : { status: entry.status, body: entry.body },
  );
}

const label = (entry: FixtureEntry, index: number): string =>
  `#${index + 1} ${entry.provider} (${entry.status ?? "no status"}): ${entry.note.slice(0, 70)}`;

const shared = readFixture(new URL("../../../shared/fixtures/provider-errors.jsonl", import.meta.url));
const heldOut = readFixture(new URL("./fixtures/more-provider-errors.jsonl", import.meta.url));

for (const [name, entries] of [
  ["shared fixture", shared],
  ["held-out fixture", heldOut],
] as const) {
  describe(`classifyProviderError on the ${name}`, () => {
    entries.forEach((entry, index) => {
      if (entry.scored === false) {
        it(`returns a valid code for ambiguous ${label(entry, index)}`, () => {
          expect(ERROR_CODES).toContain(classify(entry).code);
        });
        return;
      }
      it(`${entry.is_overflow ? "detects overflow" : "is not an overflow"}: ${label(entry, index)}`, () => {
        expect(classify(entry).code === "context_overflow").toBe(entry.is_overflow);
      });
    });
  });
}
