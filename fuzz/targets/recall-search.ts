import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { recall } from "../../src/recall/index.js";
import { lineEnd, scanLines } from "../../src/recall/scan-lines.js";
import { SessionStructure } from "../../src/recall/session-structure.js";
import { isTurnStart, parseSessionLine, type SessionHeader } from "../../src/session/index.js";
import { type FuzzTarget, invariant } from "../engine/fuzz-target.js";
import { expectOwnError } from "../support/expect-own-error.js";
import { SESSION_WORDS } from "../support/session-words.js";

const path = join(mkdtempSync(join(tmpdir(), "panto-fuzz-recall-")), "session.jsonl");
const header: SessionHeader = { type: "session", version: 1, id: "fuzz", created: "", cwd: "/" };

/**
 * recall on a session file (hand-edited, cut off, written by another version). Invariants: its
 * turn numbering, read from the lines' first bytes, is the session store's (the complete lines
 * after the header that parse as user messages and are not kept copies); a search and a read
 * never throw anything but panto's own errors, and every hit names a turn the file has.
 */
export const target: FuzzTarget = {
  description: "session file -> recall's structure (by first bytes) vs parsed entries; search and read",
  dictionary: [...SESSION_WORDS, "port", "PORT", "\\n", '\\"', "é"],
  maxLength: 16_384,
  async run(input) {
    writeFileSync(path, input);
    const structure = new SessionStructure();
    let parsedTurns = 0;
    await scanLines(path, {}, (chunk) => {
      for (let line = 0; line < chunk.starts.length; line++) {
        const start = chunk.starts[line] as number;
        const end = lineEnd(chunk, line);
        if (end <= start) continue;
        structure.see(chunk, start, end);
        if (chunk.offset + start === 0) continue;
        const parsed = parseSessionLine(chunk.bytes.toString("utf8", start, end));
        if (parsed.kind === "entry" && isTurnStart(parsed.entry)) parsedTurns++;
      }
    });
    invariant(
      structure.turn === parsedTurns,
      `recall counts ${structure.turn} turns, the store ${parsedTurns}`,
    );
    const session = { path, header, hasFile: true };
    try {
      const found = await recall(session, { query: 'port "e1" é', limit: 20 });
      for (const match of found.text.matchAll(/^\d+\. turn (\d+) /gm))
        invariant(Number(match[1]) <= structure.turn, `a hit names turn ${match[1]} of ${structure.turn}`);
      for (let turn = 1; turn <= Math.min(structure.turn, 3); turn++) {
        const read = await recall(session, { turn });
        invariant(read.ok, `turn ${turn} of ${structure.turn} could not be read: ${read.text}`);
      }
    } catch (error) {
      expectOwnError(error, ["panto", "session"]);
    }
  },
};
