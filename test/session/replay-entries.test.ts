import { describe, expect, it } from "vitest";
import type { Message } from "../../src/core/index.js";
import { MISSING_RESULT_TEXT } from "../../src/core/index.js";
import { replayEntries, type SessionEntry } from "../../src/session/index.js";
import { assistant, call, messageEntry, record, results, stamp, user } from "./session-test-helpers.js";

function compactionEntry(summary: string, id?: string): SessionEntry {
  return { type: "compaction", ...stamp(id), ...record(summary) };
}

function turnFailed(firstEntryId: string): SessionEntry {
  return { type: "turn-failed", ...stamp(), firstEntryId, code: "context_overflow", error: "too long" };
}

function synthetic(id: string, name = "bash") {
  return {
    type: "tool-result" as const,
    toolCallId: id,
    toolName: name,
    content: [{ type: "text" as const, text: MISSING_RESULT_TEXT }],
    isError: true,
  };
}

describe("replayEntries", () => {
  it("resets at each compaction: only the latest summary and the messages after it count", () => {
    const entries = [
      messageEntry(user("a")),
      compactionEntry("S1"),
      messageEntry(user("b")),
      compactionEntry("S2"),
      compactionEntry("S3"),
      messageEntry(user("c")),
    ];
    expect(replayEntries(entries)).toEqual({
      context: { compaction: { type: "compaction", summary: "S3" }, messages: [user("c")] },
      problems: [],
    });
  });

  it("drops the entries from a failed turn's first entry through the turn-failed entry", () => {
    const first = messageEntry(user("fails"));
    const entries = [
      messageEntry(user("ok")),
      first,
      messageEntry(assistant("partial")),
      turnFailed(first.id),
    ];
    expect(replayEntries(entries).context.messages).toEqual([user("ok")]);
  });

  it("ignores, with a problem note, a turn-failed entry whose first entry is before the latest compaction", () => {
    const first = messageEntry(user("old"));
    const failed = turnFailed(first.id);
    const replay = replayEntries([first, compactionEntry("S"), messageEntry(user("kept")), failed]);
    expect(replay.context.messages).toEqual([user("kept")]);
    expect(replay.problems).toEqual([
      `turn-failed entry ${failed.id} names entry ${first.id}, which is not in the active part of the session (after the latest compaction); ignored`,
    ]);
  });

  it("gives a trailing tool call without a result (process killed while the tool ran) a synthetic error result", () => {
    const messages: Message[] = [user("run the tests"), assistant("running", [call("call_7", "bash")])];
    const replay = replayEntries(messages.map((message) => messageEntry(message)));
    expect(replay.context.messages).toEqual([...messages, { role: "tool", content: [synthetic("call_7")] }]);
    expect(replay.problems).toEqual([
      "tool call call_7 (bash) has no recorded result; a synthetic error result stands in for it",
    ]);
  });

  it("gives two unanswered calls sharing one id a single stand-in result (fuzz find)", () => {
    const twice = assistant("", [call("t1"), call("t1")]);
    const { context, problems } = replayEntries([messageEntry(user("go")), messageEntry(twice)]);
    const standIns = context.messages.flatMap((message) => (message.role === "tool" ? message.content : []));
    expect(standIns.map((result) => result.toolCallId)).toEqual(["t1"]);
    expect(problems).toEqual([
      "tool call t1 (bash) has no recorded result; a synthetic error result stands in for it",
    ]);
  });

  it("merges a missing result into the tool message that answers the other calls", () => {
    const messages: Message[] = [
      user("look around"),
      assistant("", [call("a", "ls"), call("b", "read")]),
      results(["a", "ls"]),
      assistant("done"),
    ];
    const replay = replayEntries(messages.map((message) => messageEntry(message)));
    expect(replay.context.messages).toEqual([
      user("look around"),
      assistant("", [call("a", "ls"), call("b", "read")]),
      { role: "tool", content: [...results(["a", "ls"]).content, synthetic("b", "read")] },
      assistant("done"),
    ]);
    expect(replay.problems).toHaveLength(1);
  });

  it("drops a tool result with no call before it, and a second result for the same call", () => {
    const messages: Message[] = [
      user("hi"),
      results("ghost"),
      assistant("", [call("c1")]),
      results("c1"),
      results("c1", "stray"),
      assistant("ok"),
    ];
    const replay = replayEntries(messages.map((message) => messageEntry(message)));
    expect(replay.context.messages).toEqual([
      user("hi"),
      assistant("", [call("c1")]),
      results("c1"),
      assistant("ok"),
    ]);
    expect(replay.problems).toEqual([
      "tool result for call ghost (bash) has no tool call before it; left out of the context",
      "tool result for call c1 (bash) repeats an earlier result; left out of the context",
      "tool result for call stray (bash) has no tool call before it; left out of the context",
    ]);
  });

  it("treats a result that arrives after the next user message as an orphan and the call as unanswered", () => {
    const messages: Message[] = [assistant("", [call("late")]), user("never mind"), results("late")];
    const replay = replayEntries(messages.map((message) => messageEntry(message)));
    expect(replay.context.messages).toEqual([
      assistant("", [call("late")]),
      { role: "tool", content: [synthetic("late")] },
      user("never mind"),
    ]);
    expect(replay.problems).toHaveLength(2);
  });

  it("leaves a well-paired conversation exactly as it was", () => {
    const messages: Message[] = [
      user("fix it"),
      assistant("", [call("r1", "read"), call("r2", "read")]),
      results(["r1", "read"]),
      results(["r2", "read"]),
      assistant("", [call("e1", "edit")]),
      results(["e1", "edit"]),
      assistant("fixed"),
    ];
    expect(replayEntries(messages.map((message) => messageEntry(message)))).toEqual({
      context: { messages },
      problems: [],
    });
  });
});
