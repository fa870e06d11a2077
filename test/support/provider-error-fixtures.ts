import { readFileSync } from "node:fs";
import type { ErrorClassification } from "../../src/core/index.js";
import { classifyProviderError } from "../../src/providers/classify-provider-error.js";
import type { FakeReply } from "../../src/simulator/fake-provider-types.js";

/** One real provider error body from a JSONL fixture file, with the verdicts expected of it. */
export interface FixtureEntry {
  provider: string;
  api: string;
  status: number | null;
  body: string;
  is_overflow: boolean;
  note: string;
  source: string;
  /** `false` where the body is too ambiguous to score the overflow verdict. */
  scored?: boolean;
  /** The full code expected, where the body makes it unambiguous. */
  expected_code?: string;
  /** Set where the code is open (server or network, say) but whether to retry is not. */
  expected_retryable?: boolean;
}

/**
 * The repository's copy of the team's shared fixture of real provider error bodies (refreshed from
 * `shared/fixtures/provider-errors.jsonl` by `npm run refresh-fixtures`), so a plain clone's tests
 * read nothing outside the repository.
 */
export const SHARED_FIXTURE = new URL("../providers/fixtures/provider-errors.jsonl", import.meta.url);
/** The held-out set: bodies gathered to check the classifier, not to tune it. */
export const HELD_OUT_FIXTURE = new URL("../providers/fixtures/more-provider-errors.jsonl", import.meta.url);
/**
 * A third set of real error bodies, gathered after the classifier was written and never used to
 * tune it directly: providers and gateways the first two sets did not cover, plus traps.
 */
export const THIRD_FIXTURE = new URL("../providers/fixtures/third-provider-errors.jsonl", import.meta.url);

export function readFixture(url: URL): FixtureEntry[] {
  return readFileSync(url, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as FixtureEntry);
}

/** The shared and held-out entries (in that order) that `keep` accepts: what the adapter tests serve. */
export function adapterFixtures(keep: (entry: FixtureEntry) => boolean): FixtureEntry[] {
  return [...readFixture(SHARED_FIXTURE), ...readFixture(HELD_OUT_FIXTURE)].filter(keep);
}

/** Classifies the entry's body, with its status where it has one. */
export function classify(entry: FixtureEntry): ErrorClassification {
  return classifyProviderError(
    entry.status === null ? { body: entry.body } : { status: entry.status, body: entry.body },
  );
}

/** Names the entry in a test title by its 1-based place in its file. */
export const label = (entry: FixtureEntry, index: number): string =>
  `#${index + 1} ${entry.provider} (${entry.status ?? "no status"}): ${entry.note.slice(0, 70)}`;

/** The fake-server reply that serves the entry as it arrived: inside a 200 stream when it had no status. */
export function fixtureReply(entry: FixtureEntry): FakeReply {
  return entry.status === null
    ? { type: "stream-error", body: entry.body }
    : { type: "error", status: entry.status, body: entry.body };
}

/** How `fixtureReply` serves the entry, for test titles. */
export const servedAs = (entry: FixtureEntry): string =>
  entry.status === null ? "inside a 200 stream" : `as HTTP ${entry.status}`;
