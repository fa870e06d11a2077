import { appendFile, mkdir, readFile, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  listSessions,
  openSession,
  resolveSessionRef,
  SESSION_INDEX_FILE,
  uniqueIdPrefixes,
} from "../../src/session/index.js";
import {
  assistant,
  call,
  makeTempDir,
  record,
  removeTempDir,
  results,
  user,
} from "./session-test-helpers.js";

let directory: string;
beforeEach(async () => {
  directory = await makeTempDir();
});
afterEach(async () => {
  await removeTempDir(directory);
});

/** A real session written through openSession: `turns` prompts, one tool round each, then a compaction. */
async function writeSession(
  name: string,
  firstPrompt: string,
  turns: number,
  modified: Date,
): Promise<string> {
  const path = join(directory, name);
  const session = await openSession(path, { cwd: "/p", onWarning: () => {} });
  for (let turn = 0; turn < turns; turn++) {
    await session.appendMessage(user(turn === 0 ? firstPrompt : `follow-up ${turn}`));
    await session.appendMessage(assistant("", [call(`c${turn}`)]));
    await session.appendMessage(results(`c${turn}`));
    await session.appendMessage(assistant(`done ${turn}`));
  }
  // Kept copies of the last turn's user message must not count as turns.
  await session.appendCompaction(record("summary"), [user(`follow-up ${turns - 1}`), assistant("kept")]);
  await session.close();
  await utimes(path, modified, modified);
  return path;
}

describe("listSessions", () => {
  it("lists a session the index covers, unchanged in size and time, from the index without reading it", async () => {
    const modified = new Date("2025-01-01");
    const path = await writeSession("2025-01-01T00-00-00.000Z_aaaaaaaa.jsonl", "fix the parser", 2, modified);
    const first = await listSessions(directory);
    // Same size, same time, other bytes: a listing that read the file would fail on it.
    const size = (await readFile(path)).length;
    await writeFile(path, "x".repeat(size));
    await utimes(path, modified, modified);
    const second = await listSessions(directory);
    expect(second).toEqual(first);
    expect(second.sessions[0]).toMatchObject({ firstPrompt: "fix the parser", turns: 2, countsExact: true });
    // Any change of size is read again, and found broken.
    await appendFile(path, "x");
    expect((await listSessions(directory)).problems).toHaveLength(1);
  });

  it("lists sessions newest first with header id, first prompt, turns, compactions and size", async () => {
    await writeSession(
      "2025-01-01T00-00-00.000Z_aaaaaaaa.jsonl",
      "fix the date parser",
      3,
      new Date("2025-01-01"),
    );
    await writeSession(
      "2025-02-01T00-00-00.000Z_bbbbbbbb.jsonl",
      "add a CHANGELOG\nplease",
      1,
      new Date("2025-03-01"),
    );
    const { sessions, problems } = await listSessions(directory);
    expect(problems).toEqual([]);
    expect(sessions.map((session) => session.firstPrompt)).toEqual([
      "add a CHANGELOG\nplease",
      "fix the date parser",
    ]);
    expect(sessions.map((session) => [session.turns, session.compactions, session.countsExact])).toEqual([
      [1, 1, true],
      [3, 1, true],
    ]);
    const first = sessions[0];
    expect(first?.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(first?.modified).toBe("2025-03-01T00:00:00.000Z");
    expect(first?.size).toBe((await readFile(first?.path ?? "")).length);
  });

  it("records counts in the index and counts only the bytes appended since", async () => {
    const path = await writeSession(
      "2025-01-01T00-00-00.000Z_aaaaaaaa.jsonl",
      "first",
      2,
      new Date("2025-01-01"),
    );
    await listSessions(directory);
    const index = (await readFile(join(directory, SESSION_INDEX_FILE), "utf8")).trim().split("\n");
    expect(index).toHaveLength(1);
    expect(JSON.parse(index[0] ?? "")).toMatchObject({ turns: 2, compactions: 1 });
    const session = await openSession(path, { cwd: "/p", onWarning: () => {} });
    await session.appendMessage(user("one more"));
    await session.close();
    // A budget of exactly the appended bytes gives exact counts only if the index was used.
    const appended = (await readFile(path)).length - JSON.parse(index[0] ?? "").counted_to;
    const { sessions } = await listSessions(directory, { countBudgetBytes: appended });
    expect(sessions[0]).toMatchObject({ turns: 3, compactions: 1, countsExact: true });
  });

  it("gives lower bounds from the tail when a file exceeds the counting budget, then exact counts once budget allows", async () => {
    await writeSession("2025-01-01T00-00-00.000Z_aaaaaaaa.jsonl", "first", 4, new Date("2025-01-01"));
    const tight = await listSessions(directory, { countBudgetBytes: 10 });
    expect(tight.sessions[0]?.countsExact).toBe(false);
    expect(tight.sessions[0]?.turns).toBeLessThanOrEqual(4);
    expect(tight.sessions[0]?.compactions).toBe(1);
    const full = await listSessions(directory);
    expect(full.sessions[0]).toMatchObject({ turns: 4, countsExact: true });
  });

  it("shows the start of a first prompt longer than the 64 KB it reads", async () => {
    const long = `${"x".repeat(100 * 1024)} end`;
    await writeSession("2025-01-01T00-00-00.000Z_aaaaaaaa.jsonl", long, 1, new Date("2025-01-01"));
    const { sessions } = await listSessions(directory);
    expect(sessions[0]?.firstPrompt?.startsWith("xxxx")).toBe(true);
    expect(sessions[0]?.firstPrompt?.length).toBeGreaterThan(60 * 1024);
    expect(sessions[0]?.turns).toBe(1);
  });

  it("reports a file that is not a session, skips empty files and the index, and ignores a garbled index", async () => {
    await writeSession("2025-01-01T00-00-00.000Z_aaaaaaaa.jsonl", "first", 1, new Date("2025-01-01"));
    await writeFile(join(directory, "notes.jsonl"), "hello\n");
    await writeFile(join(directory, "2025-01-02T00-00-00.000Z_cccccccc.jsonl"), "");
    await mkdir(join(directory, "sub.jsonl"));
    await appendFile(join(directory, SESSION_INDEX_FILE), '{"file": torn\n');
    const { sessions, problems } = await listSessions(directory);
    expect(sessions).toHaveLength(1);
    expect(problems).toEqual([expect.stringContaining("notes.jsonl, line 1")]);
  });
});

describe("resolveSessionRef", () => {
  it("finds a session by header id prefix or file name prefix, and names the candidates of an ambiguous one", async () => {
    const a = await writeSession("2025-01-01T00-00-00.000Z_aaaaaaaa.jsonl", "a", 1, new Date("2025-01-01"));
    const b = await writeSession("2025-01-02T00-00-00.000Z_bbbbbbbb.jsonl", "b", 1, new Date("2025-01-02"));
    const { sessions } = await listSessions(directory);
    const idOfA = sessions.find((session) => session.path === a)?.id ?? "";
    expect(await resolveSessionRef(directory, idOfA.slice(0, 8).toUpperCase())).toEqual({
      type: "found",
      session: { path: a, id: idOfA },
    });
    expect(await resolveSessionRef(directory, "2025-01-02")).toMatchObject({
      type: "found",
      session: { path: b },
    });
    const ambiguous = await resolveSessionRef(directory, "2025-01");
    expect(ambiguous).toMatchObject({ type: "ambiguous" });
    expect(ambiguous.type === "ambiguous" && ambiguous.candidates.map((ref) => ref.path)).toEqual([a, b]);
    expect(await resolveSessionRef(directory, "zzz")).toMatchObject({
      type: "unknown",
      known: [{ path: a }, { path: b }],
    });
  });

  it("shortens ids to the shortest unique prefix of at least 8 characters", () => {
    expect(uniqueIdPrefixes(["abcdef0123", "abcdef0199", "12345678aa"])).toEqual([
      "abcdef012",
      "abcdef019",
      "12345678",
    ]);
  });

  it("gives the same prefixes as comparing every pair, on ids that share prefixes, repeat or are prefixes of others", () => {
    const pairwise = (ids: readonly string[], minimum: number): string[] =>
      ids.map((id) => {
        let length = Math.min(minimum, id.length);
        while (
          length < id.length &&
          ids.some((other) => other !== id && other.startsWith(id.slice(0, length)))
        )
          length++;
        return id.slice(0, length);
      });
    const id = fc.string({ unit: fc.constantFrom("a", "b", "0"), maxLength: 12 });
    fc.assert(
      fc.property(fc.array(id, { maxLength: 30 }), fc.integer({ min: 0, max: 10 }), (ids, minimum) => {
        expect(uniqueIdPrefixes(ids, minimum)).toEqual(pairwise(ids, minimum));
      }),
      { seed: 36, numRuns: 500 },
    );
  });
});
