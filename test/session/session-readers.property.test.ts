import { mkdtemp, open, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findEffectiveIds } from "../../src/export/effective-entries.js";
import { scanSession } from "../../src/export/scan-session.js";
import { replayHistory } from "../../src/frontends/acp/replay-history.js";
import { readTurns } from "../../src/recall/read-turns.js";
import { lineEnd, scanLines } from "../../src/recall/scan-lines.js";
import { SessionStructure } from "../../src/recall/session-structure.js";
import {
  effectiveTurnNumbers,
  isTurnStart,
  readActiveSuffix,
  readSessionSnapshot,
  replayEntries,
  type SessionEntry,
  survivingEntries,
  turnStarts,
} from "../../src/session/index.js";
import { foldEntries, type TurnStatus } from "../../src/session/session-model.js";

/**
 * Every reader of a session file must read the same turns and the same effective context from it
 * (issue 37): forward replay, the backward read of the active suffix that resuming does, recall's
 * byte-level classifier, the export's scanner and the editor protocol's history replay. Random
 * files are written as panto writes them (turns with tool calls, failed turns, compactions, some
 * cut off, undos, pins, rewinds and their undos, windows) and then damaged as files get damaged
 * (a line that is not JSON or not an entry mid-file, an entry type from a newer panto, a last line
 * cut off or without its newline), and every reader is asked what it exposes.
 */

const TS = "2026-12-04T10:00:00.000Z";
const HEADER = {
  type: "session",
  version: 1,
  id: "0b5e1a62-1c1d-4a8e-9d6f-6f1f0d3c9a11",
  created: TS,
  cwd: "/p",
};

type Op =
  | { kind: "turn"; tool: boolean }
  | { kind: "fail" }
  | { kind: "compact"; keep: number; cut: boolean; legacy: boolean }
  | { kind: "uncompact" }
  | { kind: "pin" }
  | { kind: "unpin" }
  | { kind: "rewind"; pick: number; scope: "both" | "conversation" | "code" }
  | { kind: "window" }
  | { kind: "unknown" }
  | { kind: "garbage"; text: string }
  | { kind: "fail-elsewhere"; pick: number };

type Tail = "clean" | "cut" | "no-newline" | "torn-garbage";

const opArbitrary: fc.Arbitrary<Op> = fc.oneof(
  { weight: 8, arbitrary: fc.record({ kind: fc.constant("turn" as const), tool: fc.boolean() }) },
  { weight: 2, arbitrary: fc.constant({ kind: "fail" as const }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("compact" as const),
      keep: fc.nat(2),
      cut: fc.constantFrom(false, false, true),
      legacy: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: "uncompact" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "pin" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "unpin" as const }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("rewind" as const),
      pick: fc.nat(60),
      scope: fc.constantFrom("both" as const, "conversation" as const, "code" as const),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: "window" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "unknown" as const }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("garbage" as const),
      text: fc.constantFrom(
        '{"type":"message","id":"zz',
        '{"x":1}',
        '{"type":"message","id":"zz","ts":"t"}',
        "}{",
      ),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("fail-elsewhere" as const), pick: fc.nat(60) }) },
);

/** Writes entries as panto's session store would for each operation, plus damaged lines. */
class Writer {
  readonly entries: SessionEntry[] = [];
  readonly lines: string[] = [];
  #next = 0;

  #id(): string {
    return (this.#next++).toString(16).padStart(8, "0");
  }

  #push(...entries: SessionEntry[]): void {
    for (const entry of entries) {
      this.entries.push(entry);
      this.lines.push(JSON.stringify(entry));
    }
  }

  #message(role: "user" | "assistant" | "tool", content: unknown[], keptBy?: string): SessionEntry {
    const extra =
      role === "assistant"
        ? { provider: "anthropic", api: "anthropic-messages", model: "m", stopReason: "stop" }
        : {};
    return {
      type: "message",
      id: this.#id(),
      ts: TS,
      message: { role, content, ...extra },
      ...(keptBy === undefined ? {} : { keptBy }),
    } as SessionEntry;
  }

  apply(op: Op): void {
    switch (op.kind) {
      case "turn":
        this.#turn(op.tool);
        return;
      case "fail": {
        const last = survivingEntries(this.entries).messages.findLast(
          (entry) => entry.message.role === "user",
        );
        if (last !== undefined) this.#failed(last.id);
        return;
      }
      case "fail-elsewhere": {
        const target = this.entries[op.pick % Math.max(1, this.entries.length)];
        this.#failed(target?.id ?? "nowhere");
        return;
      }
      case "compact":
        this.#compact(op);
        return;
      case "uncompact": {
        const base = survivingEntries(this.entries).compaction;
        if (base !== undefined)
          this.#push({ type: "uncompact", id: this.#id(), ts: TS, compactionId: base.id });
        return;
      }
      case "pin":
        this.#push({ type: "pin", id: this.#id(), ts: TS, text: `note ${this.#next}` });
        return;
      case "unpin": {
        const pin = this.entries.findLast((entry) => entry.type === "pin");
        if (pin !== undefined) this.#push({ type: "unpin", id: this.#id(), ts: TS, pinId: pin.id });
        return;
      }
      case "rewind":
        this.#rewind(op.pick, op.scope);
        return;
      case "window":
        this.#push({
          type: "window",
          id: this.#id(),
          ts: TS,
          model: "anthropic/m",
          contextWindow: 1000,
        });
        return;
      case "unknown":
        this.lines.push(JSON.stringify({ type: "plan", id: this.#id(), ts: TS, steps: [] }));
        return;
      case "garbage":
        this.lines.push(op.text);
        return;
    }
  }

  #turn(tool: boolean): void {
    const n = this.#next;
    this.#push(this.#message("user", [{ type: "text", text: `question ${n}` }]));
    if (tool) {
      const call = `call-${n}`;
      this.#push(
        this.#message("assistant", [
          { type: "tool-call", id: call, name: "bash", arguments: { command: "ls" } },
        ]),
        this.#message("tool", [
          {
            type: "tool-result",
            toolCallId: call,
            toolName: "bash",
            content: [{ type: "text", text: "out" }],
            isError: false,
          },
        ]),
      );
    }
    this.#push(this.#message("assistant", [{ type: "text", text: `answer ${n}` }]));
  }

  #failed(firstEntryId: string): void {
    this.#push({ type: "turn-failed", id: this.#id(), ts: TS, firstEntryId, code: "server", error: "boom" });
  }

  #compact(op: { keep: number; cut: boolean; legacy: boolean }): void {
    const view = foldEntries(this.entries).view();
    const surviving = survivingEntries(this.entries);
    const indexOf = new Map(this.entries.map((entry, index) => [entry, index]));
    const users = surviving.messages.filter((entry) => entry.message.role === "user");
    const first = op.keep === 0 ? undefined : users[Math.max(0, users.length - op.keep)];
    const kept = first === undefined ? [] : surviving.messages.slice(surviving.messages.indexOf(first));
    const keptTurns = kept
      .filter((entry) => entry.message.role === "user")
      .map((entry) => view.turnOfUser(indexOf.get(entry) as number) ?? 0);
    const total = turnStarts(this.entries).length;
    // Written before turns were numbered: only by a panto that wrote no rewinds, and (so that its
    // copies are the turns just before it, as readers take them) in a file without failed turns.
    const legacy =
      op.legacy && !this.entries.some((entry) => entry.type === "rewind" || entry.type === "turn-failed");
    const id = this.#id();
    const compaction = {
      type: "compaction",
      id,
      ts: TS,
      summary: `summary ${id}`,
      trigger: "manual",
      model: "anthropic/m",
      fellBack: false,
      turnsSummarised: 1,
      turnsKept: keptTurns.length,
      tokensSummarised: 10,
      tokensKept: 10,
      summaryTokens: 5,
      sizeSources: { usage: 0, estimate: 0 },
      keptMessages: kept.length + (op.cut && kept.length === 0 ? 1 : 0),
      ...(legacy ? {} : { turns: { through: (keptTurns[0] ?? total + 1) - 1, kept: keptTurns, total } }),
    } as SessionEntry;
    const copies = kept.map((entry) => ({ ...entry, id: this.#id(), keptBy: id }) as SessionEntry);
    this.#push(compaction, ...(op.cut ? copies.slice(0, -1) : copies));
  }

  #rewind(pick: number, scope: "both" | "conversation" | "code"): void {
    const points = this.entries.filter(
      (entry) => isTurnStart(entry) || entry.type === "rewind" || (pick % 7 === 0 && entry.type !== "window"),
    );
    const point = points[pick % Math.max(1, points.length)];
    this.#push({
      type: "rewind",
      id: this.#id(),
      ts: TS,
      firstEntryId: point?.id ?? "nowhere",
      scope,
      turn: 1,
      droppedTurns: [],
      files: [],
      outcomes: [],
    } as SessionEntry);
  }

  text(tail: Tail, cutAt: number): string {
    const lines = [JSON.stringify(HEADER), ...this.lines];
    if (tail === "torn-garbage") return `${lines.join("\n")}\n{"type":"message","id":"ff`;
    if (tail === "clean" || this.lines.length === 0) return `${lines.join("\n")}\n`;
    const last = lines.pop() as string;
    const head = `${lines.join("\n")}\n`;
    if (tail === "no-newline") return `${head}${last}`;
    return `${head}${last.slice(0, 1 + (cutAt % (last.length - 1)))}`;
  }
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "panto-readers-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});
let fileNumber = 0;

/** Where recall's byte-level classifier finds each turn's start. */
async function recallStarts(path: string): Promise<number[]> {
  const structure = new SessionStructure();
  await scanLines(path, { partialLast: true }, (chunk) => {
    for (let line = 0; line < chunk.starts.length; line++) {
      const start = chunk.starts[line] as number;
      const end = lineEnd(chunk, line);
      if (end > start) structure.see(chunk, start, end);
    }
  });
  return structure.turnStarts.slice(1);
}

const HOW: Readonly<Record<string, TurnStatus>> = {
  "in the context verbatim": "in context",
  "summarised: only the summary stands for it in the context": "summarised",
  "failed: replay leaves it out": "failed",
  "rewound: replay leaves it out": "rewound",
};

/** How the recall tool's reading of every turn says each stands. */
async function recallStatuses(path: string): Promise<TurnStatus[]> {
  const read = await readTurns(
    { path, id: HEADER.id },
    { from: 1, to: 10_000, offset: 0, chars: 10_000_000 },
  );
  if (!read.ok) return [];
  return [...read.text.matchAll(/^=== Turn \d+ · [^·]+ · (.+) ===$/gm)].map(
    (match) => HOW[match[1] as string] ?? ("?" as TurnStatus),
  );
}

/** The ids of the user messages the editor protocol shows on `session/load`, in order. */
async function acpTurns(path: string): Promise<string[]> {
  const ids: string[] = [];
  const send = (update: SessionUpdate) => {
    if (update.sessionUpdate === "user_message_chunk" && ids.at(-1) !== update.messageId)
      ids.push(update.messageId as string);
  };
  await replayHistory(path, { cwd: "/p", compactionEntities: true, send });
  return ids;
}

/** Byte offset and line number of each entry line, by entry id (the first line with that id). */
function whereIs(text: string): Map<string, { offset: number; line: number }> {
  const found = new Map<string, { offset: number; line: number }>();
  let offset = 0;
  text.split("\n").forEach((line, index) => {
    try {
      const id = (JSON.parse(line) as { id?: unknown }).id;
      if (index > 0 && typeof id === "string" && !found.has(id)) found.set(id, { offset, line: index + 1 });
    } catch {}
    offset += Buffer.byteLength(line) + 1;
  });
  return found;
}

async function check(ops: readonly Op[], tail: Tail, cutAt: number, chunk: number): Promise<void> {
  const writer = new Writer();
  for (const op of ops) writer.apply(op);
  const text = writer.text(tail, cutAt);
  const path = join(dir, `s${fileNumber++}.jsonl`);
  await writeFile(path, text);

  // Forward: every line parsed, in file order; the model and replay of all of it.
  const { entries } = await readSessionSnapshot(path);
  const expected = replayEntries(entries).context;
  const view = foldEntries(entries).view();
  const turns = turnStarts(entries);
  const statuses = turns.map((start) => view.status(start.turn));
  const turnOf = new Map(turns.map((start) => [start.entry.id, start.turn]));

  // Backward: what resuming reads, replayed.
  const file = await open(path, "r");
  let suffix: SessionEntry[];
  try {
    suffix = (await readActiveSuffix(path, file, (await file.stat()).size, chunk)).entries;
  } finally {
    await file.close();
  }
  expect(replayEntries(suffix).context).toEqual(expected);

  // The turns in context are the user messages of that context, numbered as the file counts turns
  // (the list reader's numbering, from the compaction in force on).
  const from = view.base?.position ?? 0;
  const numbered = effectiveTurnNumbers(
    entries.slice(from),
    entries.slice(0, from).filter(isTurnStart).length,
  );
  if (numbered !== undefined)
    expect(turns.filter((_, index) => statuses[index] === "in context").map((start) => start.turn)).toEqual([
      ...new Set(numbered.numbers),
    ]);

  // Recall: the same turns, starting where the file has them, each standing as replay has it.
  const where = whereIs(text);
  expect(await recallStarts(path)).toEqual(turns.map((start) => where.get(start.entry.id)?.offset));
  expect(await recallStatuses(path)).toEqual(statuses);

  // Export: the same effective messages and compaction, the same failed turns.
  const ids = await findEffectiveIds(path);
  const surviving = survivingEntries(entries);
  expect([...ids.messageIds]).toEqual(surviving.messages.map((entry) => entry.id));
  expect(ids.compactionId).toEqual(surviving.compaction?.id);
  const scan = await scanSession(path);
  // A turn failed when the export marks failed the line it stands in: its user message, or the
  // latest copy of it that a compaction the export shows as applied kept.
  const applied = new Set(
    scan.compactions.filter((mark) => mark.status === "applied").map((mark) => mark.id),
  );
  const standing = new Map<number, string>();
  entries.forEach((entry, index) => {
    if (entry.type !== "message" || entry.message.role !== "user") return;
    if (entry.keptBy !== undefined && !applied.has(entry.keptBy)) return;
    const turn = entry.keptBy === undefined ? turnOf.get(entry.id) : view.turnOfUser(index);
    if (turn !== undefined) standing.set(turn, entry.id);
  });
  const failedInExport = new Set(
    [...standing].filter(([, id]) => scan.failed(where.get(id)?.line ?? 0)).map(([turn]) => turn),
  );
  expect([...failedInExport].sort((a, b) => a - b)).toEqual(
    turns.filter((_, index) => statuses[index] === "failed").map((start) => start.turn),
  );
  if (surviving.compaction !== undefined)
    expect(scan.compactions.find((mark) => mark.id === surviving.compaction?.id)?.status).toBe("applied");

  // The editor protocol: the same turns, in file order.
  expect(await acpTurns(path)).toEqual(turns.map((start) => start.entry.id));
}

describe("every reader of a session file", () => {
  it("reads the same turns and the same effective context from any file, valid or damaged", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(opArbitrary, { maxLength: 40 }),
        fc.constantFrom<Tail>("clean", "clean", "cut", "no-newline", "torn-garbage"),
        fc.nat(1000),
        fc.constantFrom(64, 256, 64 * 1024),
        check,
      ),
      { numRuns: 150, endOnFailure: true },
    );
  }, 60_000);
});
