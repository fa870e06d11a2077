import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_ANSWER_CHARS, MAX_LIST_ITEMS, ParallelLimit, taskReport } from "../../src/subagents/index.js";
import { TaskActivity } from "../../src/subagents/task-activity.js";

function activityWith(reads: number, commands: number): TaskActivity {
  const activity = new TaskActivity();
  for (let i = 0; i < reads; i++) {
    activity.call({ type: "tool-call", id: `r${i}`, name: "read", arguments: { path: `f${i}.ts` } });
    activity.result({
      type: "tool-result",
      toolCallId: `r${i}`,
      toolName: "read",
      content: [],
      isError: false,
    });
  }
  for (let i = 0; i < commands; i++) {
    activity.call({ type: "tool-call", id: `b${i}`, name: "bash", arguments: { command: `cmd ${i}` } });
    activity.result({
      type: "tool-result",
      toolCallId: `b${i}`,
      toolName: "bash",
      content: [{ type: "text", text: "out\n\nExit code: 1" }],
      isError: true,
    });
  }
  return activity;
}

const base = {
  agent: "general",
  description: "look",
  sessionId: "0123456789abcdef",
  sessionPath: "/s/x.jsonl",
};

describe("taskReport", () => {
  it("starts with a one-line headline naming the session, then the full answer, files and commands with outcomes", () => {
    const report = taskReport({
      ...base,
      answer: "Found it.\nDetails follow.",
      activity: activityWith(1, 1),
    });
    expect(report.split("\n")[0]).toBe('task general "look" (session 01234567): Found it.');
    expect(report).toContain("## Answer\nFound it.\nDetails follow.");
    expect(report).toContain("## Files read (1)\n- f0.ts");
    expect(report).toContain("## Commands run (1)\n- `cmd 0` → Exit code: 1");
  });

  it("stays bounded whatever the answer's length and the number of files and commands", () => {
    fc.assert(
      fc.property(fc.nat(60_000), fc.nat(200), fc.nat(200), (answerChars, reads, commands) => {
        const answer = "x".repeat(answerChars);
        const report = taskReport({ ...base, answer, activity: activityWith(reads, commands) });
        expect(report.length).toBeLessThan(MAX_ANSWER_CHARS + 2 * MAX_LIST_ITEMS * 60 + 1_000);
        expect(report.includes("x".repeat(Math.min(answerChars, MAX_ANSWER_CHARS)))).toBe(true);
        if (reads > MAX_LIST_ITEMS) expect(report).toContain(`… and ${reads - MAX_LIST_ITEMS} more`);
      }),
      { numRuns: 50 },
    );
  });
});

describe("ParallelLimit", () => {
  it("never runs more than its limit at once, and runs everything", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 4 }),
        fc.array(fc.nat(5), { maxLength: 12 }),
        async (limit, delays) => {
          const gate = new ParallelLimit(limit);
          let running = 0;
          let peak = 0;
          const results = await Promise.all(
            delays.map((delay, index) =>
              gate.run(async () => {
                running++;
                peak = Math.max(peak, running);
                await new Promise((resolve) => setTimeout(resolve, delay));
                running--;
                return index;
              }),
            ),
          );
          expect(peak).toBeLessThanOrEqual(limit);
          expect(results).toEqual(delays.map((_, index) => index));
        },
      ),
      { numRuns: 30 },
    );
  });
});
