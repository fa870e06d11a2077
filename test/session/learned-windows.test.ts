import { appendFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useSessionSandbox } from "../support/session-sandbox.js";
import { assistant, fileLines, record, user, warningSink } from "./session-test-helpers.js";

const sandbox = useSessionSandbox();

describe("learned context windows", () => {
  it("records a window entry per model, the latest one winning, and finds it again on resume", async () => {
    const path = join(sandbox.dir, "s.jsonl");
    const session = await sandbox.open(path);
    await session.appendMessage(user("hi"));
    await session.appendWindow("local/small", {
      contextWindow: 8192,
      requestTokens: 9000,
      estimatedTokens: 9500,
    });
    await session.appendWindow("anthropic/claude", { contextWindow: 200000 });
    await session.appendWindow("local/small", { contextWindow: 4096 });
    expect(session.learnedWindows()).toEqual({
      "local/small": { contextWindow: 4096 },
      "anthropic/claude": { contextWindow: 200000 },
    });
    await session.close();
    const lines = (await fileLines(path)).filter((line) => line !== "").map((line) => JSON.parse(line));
    expect(lines[2]).toMatchObject({
      type: "window",
      model: "local/small",
      contextWindow: 8192,
      requestTokens: 9000,
    });
    const resumed = await sandbox.open(path);
    expect(resumed.learnedWindows()["local/small"]).toEqual({ contextWindow: 4096 });
  });

  it("carries every known window on a compaction entry, so resume (which reads back only to it) keeps them", async () => {
    const path = join(sandbox.dir, "s.jsonl");
    const session = await sandbox.open(path);
    await session.appendMessage(user("turn 1"));
    await session.appendWindow("local/small", { contextWindow: 2048, requestTokens: 2600 });
    await session.appendCompaction(record("S1"), [user("turn 1"), assistant("answer 1")]);
    await session.close();
    const lines = (await fileLines(path)).filter((line) => line !== "").map((line) => JSON.parse(line));
    const compaction = lines.find((line) => line.type === "compaction");
    expect(compaction).toMatchObject({
      windows: { "local/small": { contextWindow: 2048, requestTokens: 2600 } },
    });
    const resumed = await sandbox.open(path);
    expect(resumed.learnedWindows()).toEqual({ "local/small": { contextWindow: 2048, requestTokens: 2600 } });
    expect(resumed.effectiveContext().compaction?.summary).toBe("S1");
  });

  it("opens an old file without windows, and skips a malformed carried window without losing the compaction", async () => {
    const path = join(sandbox.dir, "s.jsonl");
    const session = await sandbox.open(path);
    await session.appendCompaction(record("S1"), [user("turn 1")]);
    expect(session.learnedWindows()).toEqual({});
    await session.close();
    const line = {
      type: "compaction",
      id: "c0ffee00",
      ts: new Date().toISOString(),
      ...record("S2"),
      keptMessages: 0,
      windows: { "a/b": { contextWindow: "big" }, "c/d": { contextWindow: 512 } },
    };
    await appendFile(path, `${JSON.stringify(line)}\n`);
    const resumed = await sandbox.open(path);
    expect(resumed.effectiveContext().compaction?.summary).toBe("S2");
    expect(resumed.learnedWindows()).toEqual({ "c/d": { contextWindow: 512 } });
  });

  it("reports a window entry with a bad size as an invalid line naming it, and keeps the session usable", async () => {
    const path = join(sandbox.dir, "s.jsonl");
    const session = await sandbox.open(path);
    await session.appendMessage(user("hi"));
    await session.close();
    await appendFile(
      path,
      `${JSON.stringify({ type: "window", id: "abcd0001", ts: "x", model: "a/b", contextWindow: -1 })}\n`,
    );
    const sink = warningSink();
    const resumed = await sandbox.open(path, sink.onWarning);
    expect(resumed.learnedWindows()).toEqual({});
    expect(sink.warnings.join("\n")).toMatch(/window entry whose contextWindow is not a positive count/);
    expect(resumed.effectiveContext().messages).toHaveLength(1);
  });
});
