import { mkdir, utimes, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { findLatestSession, newSessionPath, sessionDirectory } from "../../src/session/index.js";
import { makeTempDir, removeTempDir } from "./session-test-helpers.js";

let home: string;
beforeEach(async () => {
  home = await makeTempDir();
});
afterEach(async () => {
  await removeTempDir(home);
});

describe("session paths", () => {
  it("puts each project's sessions in its own folder under $PANTO_HOME/sessions", () => {
    const directory = sessionDirectory(home, "/home/ana/src/datekit");
    expect(dirname(directory)).toBe(join(home, "sessions"));
    expect(basename(directory)).toMatch(/^home-ana-src-datekit-[0-9a-f]{8}$/);
    expect(sessionDirectory(home, "/home/ana/src/datekit/")).toBe(directory);
    // Paths that flatten to the same readable name still get different folders.
    expect(sessionDirectory(home, "/a/b-c")).not.toBe(sessionDirectory(home, "/a/b/c"));
  });

  it("names new sessions by time and a random id, so names sort by creation", () => {
    const path = newSessionPath(home, "/p");
    expect(dirname(path)).toBe(sessionDirectory(home, "/p"));
    expect(basename(path)).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.\d{3}Z_[0-9a-f]{8}\.jsonl$/);
    expect(newSessionPath(home, "/p")).not.toBe(path);
  });

  it("finds the most recently modified session of the project, ignoring lock files", async () => {
    expect(await findLatestSession(home, "/p")).toBeUndefined();
    const directory = sessionDirectory(home, "/p");
    await mkdir(directory, { recursive: true });
    const older = join(directory, "2025-01-02T00-00-00.000Z_aaaaaaaa.jsonl");
    const newer = join(directory, "2025-01-01T00-00-00.000Z_bbbbbbbb.jsonl");
    for (const path of [older, newer, `${older}.lock`]) await writeFile(path, "");
    await utimes(older, new Date("2025-01-02"), new Date("2025-01-02"));
    await utimes(newer, new Date("2025-03-01"), new Date("2025-03-01"));
    await utimes(`${older}.lock`, new Date("2025-04-01"), new Date("2025-04-01"));
    expect(await findLatestSession(home, "/p")).toBe(newer);
    expect(await findLatestSession(home, "/other")).toBeUndefined();
  });
});
