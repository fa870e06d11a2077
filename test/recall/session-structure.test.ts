import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { lineEnd, scanLines } from "../../src/recall/scan-lines.js";
import { SessionStructure } from "../../src/recall/session-structure.js";
import { isTurnStart, parseSessionLine } from "../../src/session/index.js";

const HEADER = {
  type: "session",
  version: 1,
  id: "6f1c2a9e-0d4b-4f7e-9a51-3c8e2b7d1f60",
  created: "2026-12-04T10:00:00.000Z",
  cwd: "/p",
};

function message(id: string, role: string, text: string): string {
  return JSON.stringify({
    type: "message",
    id,
    ts: "2026-12-04T10:00:01.000Z",
    message: { role, content: [{ type: "text", text }] },
  });
}

/** Recall's turn count (lines read by their first bytes) and the store's (every line parsed). */
async function counts(lines: string[]): Promise<{ recall: number; store: number }> {
  const path = join(await mkdtemp(join(tmpdir(), "panto-structure-")), "s.jsonl");
  await writeFile(path, `${[JSON.stringify(HEADER), ...lines].join("\n")}\n`);
  const structure = new SessionStructure();
  let store = 0;
  await scanLines(path, {}, (chunk) => {
    for (let line = 0; line < chunk.starts.length; line++) {
      const start = chunk.starts[line] as number;
      const end = lineEnd(chunk, line);
      if (end <= start) continue;
      structure.see(chunk, start, end);
      if (chunk.offset + start === 0) continue;
      const parsed = parseSessionLine(chunk.bytes.toString("utf8", start, end));
      if (parsed.kind === "entry" && isTurnStart(parsed.entry)) store++;
    }
  });
  return { recall: structure.turn, store };
}

describe("SessionStructure numbers turns as the session store does", () => {
  it("counts a line whose first bytes say tool but whose repeated message key holds a user message (JSON's last key wins; a fuzz find)", async () => {
    const repeated = message("b2", "tool", "result").replace(
      /\}$/,
      `,"message":{"role":"user","content":[{"type":"text","text":"again"}]}}`,
    );
    expect(JSON.parse(repeated).message.role).toBe("user");
    expect(
      await counts([message("a1", "user", "first"), repeated, message("c3", "assistant", "ok")]),
    ).toEqual({
      recall: 2,
      store: 2,
    });
  });

  it("still reads ordinary assistant and tool lines by their first bytes, a user role in their text included", async () => {
    const quoting = message("d4", "assistant", 'the JSON said "role":"user"');
    expect(await counts([message("a1", "user", "first"), quoting, message("e5", "tool", "x")])).toEqual({
      recall: 1,
      store: 1,
    });
  });
});
