import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { findChildSessions } from "../../src/session/index.js";

const PARENT = "11111111-1111-4111-8111-111111111111";
const CREATED = "2026-12-04T12:00:00.000Z";

/** A session file called `name` whose header names `parent` (none: a session of its own). */
async function session(directory: string, name: string, parent?: { id: string; relation: string }) {
  const header = {
    type: "session",
    version: 1,
    id: `id-${name}`,
    created: CREATED,
    cwd: "/project",
    ...(parent === undefined ? {} : { parent: { ...parent, path: "/elsewhere/parent.jsonl" } }),
  };
  await writeFile(join(directory, name), `${JSON.stringify(header)}\n`);
  return name;
}

const named = (iso: string, id: string) => `${iso.replace(/:/g, "-")}_${id}.jsonl`;

describe("findChildSessions", () => {
  it("finds the sessions naming the parent with the relation, in start order, and passes over the rest", async () => {
    const directory = await mkdtemp(join(tmpdir(), "panto-children-"));
    const task = { id: PARENT, relation: "task" };
    const first = await session(directory, named("2026-12-04T12:01:00.000Z", "a"), task);
    const second = await session(directory, named("2026-12-04T12:02:00.000Z", "b"), task);
    await session(directory, named("2026-12-04T12:03:00.000Z", "c"), { id: PARENT, relation: "handoff" });
    await session(directory, named("2026-12-04T12:04:00.000Z", "d"), { id: "another", relation: "task" });
    await session(directory, named("2026-12-04T12:05:00.000Z", "e"));
    await writeFile(join(directory, named("2026-12-04T12:06:00.000Z", "f")), "not a session\n");
    const found = await findChildSessions(directory, PARENT, "task", CREATED);
    expect(found).toEqual([join(directory, first), join(directory, second)]);
  });

  it("given the parent's start, does not open files named as started over an hour before it; without it, reads them all", async () => {
    const directory = await mkdtemp(join(tmpdir(), "panto-children-"));
    const task = { id: PARENT, relation: "task" };
    const long = await session(directory, named("2026-12-04T10:59:59.999Z", "old"), task);
    const recent = await session(directory, named("2026-12-04T11:30:00.000Z", "skewed"), task);
    const custom = await session(directory, "my-session.jsonl", task);
    expect(await findChildSessions(directory, PARENT, "task", CREATED)).toEqual([
      join(directory, recent),
      join(directory, custom),
    ]);
    expect(await findChildSessions(directory, PARENT, "task")).toEqual([
      join(directory, long),
      join(directory, recent),
      join(directory, custom),
    ]);
  });
});
