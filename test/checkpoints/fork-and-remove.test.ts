import { execSync } from "node:child_process";
import { readdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { storeDirectory } from "../../src/checkpoints/checkpoint-store.js";
import { applyRewind, prepareRewind, SessionCheckpoints } from "../../src/checkpoints/index.js";
import { adoptObjects, releaseSessionObjects } from "../../src/checkpoints/release-session-objects.js";
import {
  forkSession,
  openSession,
  readSessionSnapshot,
  removeSession,
  replayEntries,
} from "../../src/session/index.js";
import { type CheckpointFixture, recordedTurn, treeOf, useCheckpointFixture } from "./checkpoint-fixture.js";

const fixture = useCheckpointFixture();

async function objectCount(home: string, root: string): Promise<number> {
  const objects = join(storeDirectory(home, root), "git", "objects");
  let count = 0;
  for (const folder of await readdir(objects).catch(() => [] as string[]))
    if (folder.length === 2) count += (await readdir(join(objects, folder))).length;
  return count;
}

async function threeTurns(value: CheckpointFixture): Promise<void> {
  for (const turn of [1, 2, 3])
    await recordedTurn(value, `turn ${turn}`, "bash", { command: "..." }, () => {
      execSync(`echo ${turn} > f${turn}.txt`, { cwd: value.project });
    });
}

describe("forking a session", () => {
  it("copies the parent's entries up to the point word for word under a header naming it; the parent is unchanged", async () => {
    const value = fixture();
    await threeTurns(value);
    const parentBytes = await readFile(value.session.path);
    const fork = await forkSession({
      parentPath: value.session.path,
      turn: 2,
      path: join(value.home, "fork.jsonl"),
      cwd: value.project,
    });
    expect(await readFile(value.session.path)).toEqual(parentBytes);
    const [headerLine, ...lines] = (await readFile(fork.path, "utf8")).trimEnd().split("\n");
    expect(JSON.parse(headerLine ?? "")).toMatchObject({
      parent: { id: value.session.header.id, path: value.session.path, relation: "fork", turn: 2 },
    });
    expect(parentBytes.toString("utf8")).toContain(lines.join("\n"));
    const { entries } = await readSessionSnapshot(fork.path);
    const texts = replayEntries(entries).context.messages.flatMap((message) =>
      message.role === "user"
        ? message.content.map((block) => (block.type === "text" ? block.text : ""))
        : [],
    );
    expect(texts).toEqual(["turn 1", "turn 2"]);
    expect((await stat(fork.path)).mode & 0o777).toBe(0o600);
  });

  it("at a turn a rewind took back, keeps the context the parent had then", async () => {
    const value = fixture();
    await threeTurns(value);
    const prepared = await prepareRewind({
      sessionPath: value.session.path,
      pantoHome: value.home,
      target: { turn: 2 },
      scope: "conversation",
    });
    await applyRewind(prepared, value.session, { pantoHome: value.home, force: false });
    const fork = await forkSession({
      parentPath: value.session.path,
      turn: 3,
      path: join(value.home, "fork.jsonl"),
      cwd: value.project,
    });
    const { entries } = await readSessionSnapshot(fork.path);
    expect(replayEntries(entries).context.messages.filter((message) => message.role === "user")).toHaveLength(
      3,
    );
    expect(entries.some((entry) => entry.type === "rewind")).toBe(false);
  });

  it("refuses a turn the parent does not have, leaving no file", async () => {
    const value = fixture();
    await threeTurns(value);
    const path = join(value.home, "fork.jsonl");
    await expect(
      forkSession({ parentPath: value.session.path, turn: 7, path, cwd: value.project }),
    ).rejects.toThrow("has 3 turns");
    expect(await readdir(value.home)).not.toContain("fork.jsonl");
  });
});

describe("removing a session", () => {
  it("frees the objects only it used and keeps those another session (a fork) still names", async () => {
    const value = fixture();
    await threeTurns(value);
    const fork = await forkSession({
      parentPath: value.session.path,
      turn: 1,
      path: join(value.home, "fork.jsonl"),
      cwd: value.project,
    });
    await adoptObjects(value.home, fork.header.id, fork.objects);
    const forked = await openSession(fork.path, { cwd: value.project, onWarning: () => {} });
    const recorder = new SessionCheckpoints({ session: forked, pantoHome: value.home, cwd: value.project });
    await recordedTurn(
      { ...value, session: forked, recorder },
      "in the fork",
      "write",
      { path: "fork.txt" },
      () => writeFile(join(value.project, "fork.txt"), "made in the fork\n"),
    );
    await forked.close();
    await value.session.close();
    const before = await objectCount(value.home, value.project);

    const removed = await removeSession(value.session.path);
    const released = await releaseSessionObjects(value.home, removed.header.id, removed.modifiedMs);
    expect(released.objects).toBeGreaterThan(0);
    expect(await objectCount(value.home, value.project)).toBe(before - released.objects);

    // The fork can still rewind its copied turn 1 and its own turn.
    const reopened = await openSession(fork.path, { cwd: value.project, onWarning: () => {} });
    const tree = await treeOf(value.project, (path) => path === ".git");
    const prepared = await prepareRewind({
      sessionPath: fork.path,
      pantoHome: value.home,
      target: { turn: 1 },
      scope: "code",
    });
    expect(prepared.code?.verdicts.map((verdict) => verdict.action)).toEqual(["restore", "restore"]);
    await applyRewind(prepared, reopened, { pantoHome: value.home, force: false });
    expect(await treeOf(value.project, (path) => path === ".git")).not.toEqual(tree);
    await reopened.close();

    // Removing the last session removes the store.
    const last = await removeSession(fork.path);
    const freed = await releaseSessionObjects(value.home, last.header.id, Date.now());
    expect(freed.storesRemoved).toBe(1);
    expect(await readdir(join(value.home, "checkpoints"))).toEqual([]);
  });

  it("refuses a session another panto has open", async () => {
    const value = fixture();
    await recordedTurn(value, "hello", "bash", { command: "ls" }, () => {});
    await expect(removeSession(value.session.path)).rejects.toThrow(/in use|pid/);
  });
});
