import { access, readFile, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openNewSession, openSession, SessionError } from "../../src/session/index.js";
import { makeTempDir, user } from "./session-test-helpers.js";

let dir: string;

beforeEach(async () => {
  dir = await makeTempDir();
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function exists(file: string): Promise<boolean> {
  return await access(file).then(
    () => true,
    () => false,
  );
}

/** Resolves once `check` holds, polling (the reservation runs in the background). */
async function until(check: () => Promise<boolean>): Promise<void> {
  for (let tries = 0; tries < 200; tries++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error("the condition never held");
}

function lines(text: string): Array<{ type: string }> {
  return text
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as { type: string });
}

describe("reserving a new session's file in the background (one-shot runs)", () => {
  it("makes and locks the file before the first append, which then writes the header and its entry", async () => {
    const path = join(dir, "sessions", "new.jsonl");
    const session = openNewSession(path, { cwd: dir });
    session.reserve?.();
    await until(() => exists(path));
    // Locked: a second panto is refused before anything is written.
    const refused = await openSession(path, { cwd: dir }).then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(refused).toBeInstanceOf(SessionError);
    expect((refused as SessionError).message).toContain("is in use by another panto");
    expect(session.hasFile).toBe(false);
    await session.appendMessage(user("first prompt"));
    expect(session.hasFile).toBe(true);
    expect(lines(await readFile(path, "utf8")).map((line) => line.type)).toEqual(["session", "message"]);
    await session.close();
    // The lock went with the close: the file opens again and still holds the prompt.
    const again = await openSession(path, { cwd: dir });
    expect(again.effectiveContext().messages).toHaveLength(1);
    await again.close();
  });

  it("removes the empty file when the session closes with nothing written (a setup step failed after it)", async () => {
    const path = join(dir, "sessions", "never-used.jsonl");
    const session = openNewSession(path, { cwd: dir });
    session.reserve?.();
    // Closed at once, before the reservation has finished: close waits for it, then undoes it.
    await session.close();
    expect(await exists(path)).toBe(false);
    expect(await exists(`${path}.lock`)).toBe(false);
  });

  it("meets a failed reservation at the first append, and a later append tries afresh", async () => {
    // A file where the session's folder should be: the reservation cannot make the folder.
    const folder = join(dir, "not-a-folder");
    await writeFile(folder, "in the way");
    const path = join(folder, "s.jsonl");
    const session = openNewSession(path, { cwd: dir });
    session.reserve?.();
    await expect(session.appendMessage(user("lost?"))).rejects.toThrow(SessionError);
    expect(session.hasFile).toBe(false);
    await rm(folder);
    await session.appendMessage(user("kept"));
    expect(lines(await readFile(path, "utf8")).map((line) => line.type)).toEqual(["session", "message"]);
    await session.close();
  });

  it("does nothing for a session that already has its file", async () => {
    const path = join(dir, "existing.jsonl");
    const session = await openSession(path, { cwd: dir });
    await session.appendMessage(user("one"));
    session.reserve?.();
    await session.appendMessage(user("two"));
    await session.close();
    expect((await stat(path)).size).toBeGreaterThan(0);
    expect(lines(await readFile(path, "utf8")).filter((line) => line.type === "message")).toHaveLength(2);
  });
});
