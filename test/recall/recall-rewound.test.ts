import { readFile } from "node:fs/promises";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { recall } from "../../src/recall/index.js";
import {
  parseSessionLine,
  rewoundMask,
  type Session,
  type SessionEntry,
  turnStarts,
} from "../../src/session/index.js";
import { useSessionSandbox } from "../support/session-sandbox.js";
import { SessionWriter } from "./recall-fixture.js";

const sandbox = useSessionSandbox();

type Op =
  | { type: "turn" }
  | { type: "rewind"; to: number; scope: "conversation" | "code" }
  | { type: "undo" };

const opArbitrary: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.constant({ type: "turn" as const }) },
  {
    weight: 2,
    arbitrary: fc.record({
      type: fc.constant("rewind" as const),
      to: fc.nat(20),
      scope: fc.constantFrom("conversation" as const, "code" as const),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ type: "undo" as const }) },
);

async function entriesOf(path: string): Promise<SessionEntry[]> {
  const lines = (await readFile(path, "utf8")).split("\n").filter((line) => line !== "");
  return lines.flatMap((line) => {
    const parsed = parseSessionLine(line);
    return parsed.kind === "entry" ? [parsed.entry] : [];
  });
}

/** A rewind entry as panto writes one: its point, the turn, and no files (a conversation rewind). */
async function appendRewind(
  session: Session,
  firstEntryId: string,
  turn: number,
  scope: Op["type"] | string,
) {
  await session.appendRewind({
    firstEntryId,
    scope: scope === "code" ? "code" : "conversation",
    turn,
    droppedTurns: [],
    files: [],
    outcomes: [],
  });
}

/** How the user message holding `needle` stands ("1. turn N · time · user · STATUS"). */
async function statusOf(session: Session, needle: string): Promise<string | undefined> {
  const answer = await recall(session, { query: needle, kind: "user" });
  const hit = answer.text.split("\n").find((line) => /^1\. turn \d+ · /.test(line));
  return hit?.split(" · ")[3];
}

describe("recall marks rewound turns as replay leaves them out", () => {
  it("marks a turn rewound exactly when the session's own replay rule takes it out, undone rewinds included", async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(opArbitrary, { minLength: 1, maxLength: 12 }), async (ops) => {
        const path = join(sandbox.dir, `r${run++}.jsonl`);
        const session = await sandbox.open(path);
        const writer = new SessionWriter(session);
        let turns = 0;
        for (const op of ops) {
          if (op.type === "turn") {
            turns++;
            await writer.turn(`prompt with needle${turns}q`);
            continue;
          }
          const entries = await entriesOf(path);
          if (op.type === "rewind") {
            const starts = turnStarts(entries);
            const start = starts[op.to % Math.max(1, starts.length)];
            if (start !== undefined) await appendRewind(session, start.entry.id, start.turn, op.scope);
          } else {
            const latest = entries.findLast((entry) => entry.type === "rewind");
            if (latest !== undefined) await appendRewind(session, latest.id, turns + 1, "conversation");
          }
        }
        const entries = await entriesOf(path);
        const mask = rewoundMask(entries);
        for (const start of turnStarts(entries)) {
          const expected = mask[start.index] === true ? "rewound" : "in context";
          expect({ turn: start.turn, status: await statusOf(session, `needle${start.turn}q`) }).toEqual({
            turn: start.turn,
            status: expected,
          });
        }
      }),
      { numRuns: 40 },
    );
  }, 120_000);

  it("reads a rewound turn back under a heading that says so, and an undone rewind brings it back into context", async () => {
    const session = await sandbox.open(sandbox.path);
    const writer = new SessionWriter(session);
    await writer.turn("keep this one alpha1");
    await writer.turn("rewind this one beta2");
    const second = turnStarts(await entriesOf(sandbox.path))[1] as { entry: SessionEntry };
    await appendRewind(session, second.entry.id, 2, "conversation");
    await writer.turn("after the rewind gamma3");
    expect(await statusOf(session, "beta2")).toBe("rewound");
    expect(await statusOf(session, "gamma3")).toBe("in context");
    const read = await recall(session, { turn: 2 });
    expect(read.text).toContain("beta2");
    expect(read.text).toMatch(/=== Turn 2 · .* · rewound: replay leaves it out ===/);
    const rewind = (await entriesOf(sandbox.path)).findLast(
      (entry) => entry.type === "rewind",
    ) as SessionEntry;
    await appendRewind(session, rewind.id, 4, "conversation");
    expect(await statusOf(session, "beta2")).toBe("in context");
    expect(await statusOf(session, "gamma3")).toBe("rewound");
  });

  it("a compaction inside a rewound range is no longer in effect: the turns it summarised are in context again", async () => {
    const session = await sandbox.open(sandbox.path);
    const writer = new SessionWriter(session);
    await writer.turn("first delta1");
    await writer.turn("second delta2");
    await writer.turn("third delta3");
    await writer.compact("summary of the first two", 1);
    expect(await statusOf(session, "delta1")).toBe("summarised");
    const third = turnStarts(await entriesOf(sandbox.path))[2] as { entry: SessionEntry };
    await appendRewind(session, third.entry.id, 3, "conversation");
    expect(await statusOf(session, "delta1")).toBe("in context");
    expect(await statusOf(session, "delta2")).toBe("in context");
    expect(await statusOf(session, "delta3")).toBe("rewound");
    expect(session.effectiveContext().compaction).toBeUndefined();
  });
});
