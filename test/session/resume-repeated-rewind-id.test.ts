import { mkdtemp, open, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseSessionLine, replayEntries, type SessionEntry } from "../../src/session/index.js";
import { readActiveSuffix } from "../../src/session/read-active-suffix.js";

/** A conversation rewind entry `id` back to the entry `point`. */
const rewind = (id: string, point: string, turn: number) => ({
  type: "rewind",
  id,
  ts: "t",
  firstEntryId: point,
  scope: "conversation",
  turn,
  droppedTurns: [],
  files: [],
  outcomes: [],
});

const lines = [
  { type: "session", version: 1, id: "s", created: "2026-12-04T10:00:00.000Z", cwd: "/p" },
  {
    type: "message",
    id: "u2",
    ts: "2026-12-04T10:00:01.000Z",
    message: { role: "user", content: [{ type: "text", text: "keep me" }] },
  },
  rewind("rw1", "u2", 1),
  // Undoes rw1 (its point is rw1), so "keep me" is back.
  rewind("rw2", "rw1", 2),
  // A damaged line: the same id again, naming no entry of the file.
  rewind("rw2", "missing", 2),
];

describe("resuming a session whose rewinds repeat an id (a fuzz find)", () => {
  it("ignores only the rewind whose point is missing, and replays what a forward read replays", async () => {
    const path = join(await mkdtemp(join(tmpdir(), "panto-rewind-id-")), "s.jsonl");
    const text = `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`;
    await writeFile(path, text);
    const file = await open(path, "r");
    const resumed = await readActiveSuffix(path, file, (await file.stat()).size);
    await file.close();
    const forward = text
      .split("\n")
      .slice(1)
      .flatMap((line): SessionEntry[] => {
        const parsed = parseSessionLine(line);
        return parsed.kind === "entry" ? [parsed.entry] : [];
      });
    expect(replayEntries(forward).context.messages).toHaveLength(1);
    expect(replayEntries(resumed.entries).context).toEqual(replayEntries(forward).context);
    expect(resumed.warnings).toContainEqual(expect.stringContaining("rewind entry rw2 names entry missing"));
  });
});
