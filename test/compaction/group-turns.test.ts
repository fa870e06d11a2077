import { describe, expect, it } from "vitest";
import { groupTurns } from "../../src/compaction/index.js";
import { assistant, call, results, user } from "./builders.js";

describe("groupTurns", () => {
  it("starts a turn at each user message and keeps the tool loop inside it", () => {
    const messages = [
      user("fix the test"),
      assistant([call("a", "read_file", { path: "x.ts" }), call("b", "read_file", { path: "y.ts" })]),
      results({ id: "a", name: "read_file", text: "x" }, { id: "b", name: "read_file", text: "y" }),
      assistant("fixed"),
      user("thanks, now the docs"),
      assistant("done"),
    ];
    const turns = groupTurns(messages);
    expect(turns.map((turn) => [turn.start, turn.end])).toEqual([
      [0, 4],
      [4, 6],
    ]);
    expect(turns[0]?.messages).toEqual(messages.slice(0, 4));
    expect(turns[1]?.messages[0]).toBe(messages[4]);
  });

  it("puts leading assistant and tool messages into one turn of their own", () => {
    const messages = [
      assistant([call("a", "bash")]),
      results({ id: "a", name: "bash", text: "ok" }),
      assistant("done"),
      user("next"),
    ];
    expect(groupTurns(messages).map((turn) => [turn.start, turn.end])).toEqual([
      [0, 3],
      [3, 4],
    ]);
  });

  it("returns no turns for no messages, and one per user message for consecutive user messages", () => {
    expect(groupTurns([])).toEqual([]);
    expect(groupTurns([user("a"), user("b")]).map((turn) => turn.messages.length)).toEqual([1, 1]);
  });
});
