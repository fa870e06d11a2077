import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readTaskLog } from "../../src/recall/read-task-log.js";

async function sessionWithLog(text: string): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), "panto-task-log-"));
  const session = join(root, "s.jsonl");
  // Beside s.jsonl, as the session keeps it: s.tasks/.
  await mkdir(join(root, "s.tasks"));
  await writeFile(join(root, "s.tasks", "bg1.log"), text);
  return session;
}

describe("recall's reading of a background task's log", () => {
  it("reads the log in pages that join to the whole, never cutting a character in two", async () => {
    const text = `${"é".repeat(10)}end\n`;
    const session = await sessionWithLog(text);
    const first = await readTaskLog(session, "bg1", 0, 7);
    expect(first.ok).toBe(true);
    expect(first.text).toContain("Output of background task bg1 (24 bytes):\nééé\n\n[More follows");
    const pages: string[] = [];
    let offset = 0;
    for (let guard = 0; guard < 20; guard++) {
      const page = await readTaskLog(session, "bg1", offset, 7);
      const body = page.text.split(":\n").slice(1).join(":\n").split("\n\n[More follows")[0] ?? "";
      pages.push(body);
      const next = /"offset":(\d+)/.exec(page.text);
      if (next === null) break;
      offset = Number(next[1]);
    }
    expect(pages.join("")).toBe(text);
  });

  it("names the tasks there are when asked for one that is not", async () => {
    const session = await sessionWithLog("x\n");
    expect(await readTaskLog(session, "bg7", 0, 100)).toEqual({
      ok: false,
      text: "no log of background task bg7 beside this session (s.tasks): the tasks are bg1",
    });
    expect((await readTaskLog(session, "../x", 0, 100)).text).toContain("is not a background task id");
  });
});
