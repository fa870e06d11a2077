import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { newSessionHeader, newSessionPath, openSession } from "../../src/session/index.js";
import { makeSandbox, runPanto } from "./panto-process.js";

interface ListedParent {
  id: string;
  path: string;
  relation: string;
  turn: number | null;
}

describe("session lineage in the header and in panto sessions (built CLI)", { timeout: 60_000 }, () => {
  it("names a child's parent, relation and turn in the JSON listing and the table", async () => {
    const box = await makeSandbox();
    const parentPath = newSessionPath(box.home, box.project);
    const parent = await openSession(parentPath, { cwd: box.project, onWarning: () => {} });
    await parent.appendMessage({ role: "user", content: [{ type: "text", text: "fix the parser" }] });
    await parent.close();
    const childPath = newSessionPath(box.home, box.project);
    const header = newSessionHeader(box.project, {
      id: parent.header.id,
      path: parentPath,
      relation: "fork",
      turn: 1,
    });
    const child = await openSession(childPath, { cwd: box.project, header, onWarning: () => {} });
    await child.appendMessage({ role: "user", content: [{ type: "text", text: "try another fix" }] });
    await child.close();

    const list = await runPanto(["sessions", "--json"], { cwd: box.project, env: box.env });
    expect(list.code).toBe(0);
    const listed = JSON.parse(list.stdout) as Array<{ id: string; parent: ListedParent | null }>;
    const byId = new Map(listed.map((session) => [session.id, session.parent]));
    expect(byId.get(parent.header.id)).toBeNull();
    expect(byId.get(child.header.id)).toEqual({
      id: parent.header.id,
      path: parentPath,
      relation: "fork",
      turn: 1,
    });

    const table = await runPanto(["sessions"], { cwd: box.project, env: box.env });
    const childLine = table.stdout.split("\n").find((line) => line.startsWith(child.header.id.slice(0, 8)));
    expect(childLine).toContain(`↳ fork of ${parent.header.id.slice(0, 8)} at turn 1: try another fix`);
  });

  it("reports a header whose parent is malformed, naming the file, line 1 and the key", async () => {
    const box = await makeSandbox();
    const path = join(box.home, "bad-parent.jsonl");
    const header = { ...newSessionHeader(box.project), parent: { id: "x", relation: "fork" } };
    await writeFile(path, `${JSON.stringify(header)}\n`);
    const run = await runPanto(["--session", path, "-p", "hello"], { cwd: box.project, env: box.env });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${path}, line 1: the header's "parent" lacks id, path or relation`);
  });
});
