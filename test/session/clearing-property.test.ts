import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { EffectiveContext, Message } from "../../src/core/index.js";
import {
  clearingsInForce,
  openSession,
  parseSessionLine,
  replayEntries,
  type Session,
  type SessionEntry,
} from "../../src/session/index.js";
import { assistant, call, record, user } from "./session-test-helpers.js";

/**
 * Clearings are entries the session model applies: for random sessions mixing turns with tool
 * output, clearings, their undos, compactions and their undos, the live session, a replay of the
 * whole file and a resume (the backward read) give the same effective context; every cleared
 * result holds its stub and every other one its output whole; the uncleared context holds every
 * output whole, and the file never holds a stub outside a clearing entry.
 */

type Op =
  | { type: "turn"; outputs: number[] }
  | { type: "clear"; pick: number[] }
  | { type: "unclear" }
  | { type: "compact"; keepLast: boolean }
  | { type: "uncompact" };

const opArbitrary: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      type: fc.constant("turn" as const),
      outputs: fc.array(fc.nat(40), { minLength: 0, maxLength: 3 }),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      type: fc.constant("clear" as const),
      pick: fc.array(fc.nat(20), { minLength: 1, maxLength: 4 }),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ type: "unclear" as const }) },
  { weight: 2, arbitrary: fc.record({ type: fc.constant("compact" as const), keepLast: fc.boolean() }) },
  { weight: 1, arbitrary: fc.constant({ type: "uncompact" as const }) },
);

const outputOf = (id: string, size: number) => `output of ${id}: ${"x".repeat(size * 7)}`;
const stubOf = (id: string) =>
  `[cleared to save context: output of bash "ls", 1 tokens; recall {"tool_result": "${id}"} reads it back]`;

function resultTexts(context: EffectiveContext): Map<string, string> {
  const texts = new Map<string, string>();
  for (const message of context.messages)
    if (message.role === "tool")
      for (const block of message.content)
        texts.set(
          block.toolCallId,
          block.content.map((part) => (part.type === "text" ? part.text : "")).join(""),
        );
  return texts;
}

async function fileEntries(path: string): Promise<SessionEntry[]> {
  const lines = (await readFile(path, "utf8")).split("\n").slice(1).filter(Boolean);
  return lines.flatMap((line) => {
    const parsed = parseSessionLine(line);
    return parsed.kind === "entry" ? [parsed.entry] : [];
  });
}

async function apply(
  session: Session,
  op: Op,
  state: { calls: number; stack: string[][]; outputs: Map<string, string> },
) {
  switch (op.type) {
    case "turn": {
      const ids = op.outputs.map(() => `call_${state.calls++}`);
      await session.appendMessage(user(`prompt ${state.calls}`));
      if (ids.length > 0) {
        await session.appendMessage(
          assistant(
            "",
            ids.map((id) => call(id)),
          ),
        );
        const content = ids.map((id, index) => {
          const text = outputOf(id, op.outputs[index] ?? 0);
          state.outputs.set(id, text);
          return {
            type: "tool-result" as const,
            toolCallId: id,
            toolName: "bash",
            content: [{ type: "text" as const, text }],
            isError: false,
          };
        });
        await session.appendMessage({ role: "tool", content });
      }
      await session.appendMessage(assistant(`answer ${state.calls}`));
      return;
    }
    case "clear": {
      const { cleared } = clearingsInForce(session.activeEntries());
      const open = [...resultTexts(session.effectiveContext()).keys()].filter((id) => !cleared.has(id));
      const chosen = [...new Set(op.pick.map((index) => open[index % Math.max(1, open.length)]))].filter(
        (id): id is string => id !== undefined,
      );
      if (chosen.length === 0) return;
      await session.appendClearing({
        results: chosen.map((id) => ({ toolCallId: id, toolName: "bash", tokens: 10, stub: stubOf(id) })),
        tokensBefore: 100,
        tokensAfter: 50,
        reason: "trigger",
      });
      state.stack.push(chosen);
      return;
    }
    case "unclear": {
      const latest = clearingsInForce(session.activeEntries()).clearings.at(-1);
      if (latest === undefined) return;
      await session.appendUnclear({ clearingId: latest.id, tokensBefore: 50, tokensAfter: 100 });
      state.stack.pop();
      return;
    }
    case "compact": {
      const { messages } = session.effectiveContext();
      const lastUser = messages.findLastIndex((message) => message.role === "user");
      const kept: Message[] = op.keepLast && lastUser >= 0 ? messages.slice(lastUser) : [];
      await session.appendCompaction(record(`summary ${state.calls}`), kept);
      return;
    }
    case "uncompact": {
      const active = session.activeCompaction();
      if (active !== undefined) await session.appendUncompact(active.id);
      return;
    }
  }
}

describe("clearings in the session model", () => {
  it("give the same effective context live, replayed from the file and resumed, after any mix of clearings and compactions", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArbitrary, { minLength: 1, maxLength: 25 }), async (ops) => {
        const dir = await mkdtemp(join(tmpdir(), "panto-clearing-"));
        const path = join(dir, "s.jsonl");
        const warnings: string[] = [];
        const session = await openSession(path, { cwd: dir, onWarning: (w) => warnings.push(w) });
        const state = { calls: 0, stack: [] as string[][], outputs: new Map<string, string>() };
        try {
          for (const op of ops) {
            await apply(session, op, state);
            const live = session.effectiveContext();
            const replayed = replayEntries(await fileEntries(path)).context;
            expect(replayed).toEqual(live);
            const clearedIds = new Set(state.stack.flat());
            for (const [id, text] of resultTexts(live))
              expect(text).toBe(clearedIds.has(id) ? stubOf(id) : state.outputs.get(id));
            for (const [id, text] of resultTexts(session.unclearedContext()))
              expect(text).toBe(state.outputs.get(id));
          }
          await session.close();
          const resumed = await openSession(path, { cwd: dir, onWarning: (w) => warnings.push(w) });
          try {
            expect(resumed.effectiveContext()).toEqual(replayEntries(await fileEntries(path)).context);
          } finally {
            await resumed.close();
          }
          // Outputs are never rewritten: no message line holds a stub.
          for (const entry of await fileEntries(path))
            if (entry.type === "message")
              expect(JSON.stringify(entry)).not.toContain("cleared to save context");
          expect(warnings).toEqual([]);
        } finally {
          await session.close();
          await rm(dir, { recursive: true, force: true });
        }
      }),
      { numRuns: 60 },
    );
  });
});
