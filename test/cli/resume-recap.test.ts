import { describe, expect, it } from "vitest";
import { resumeRecap } from "../../src/frontends/terminal/resume-recap.js";
import { assistant, call, results, user } from "../compaction/builders.js";

describe("resumeRecap (what a resumed terminal session shows first)", () => {
  it("collapses the compaction block, counts tool calls, and shows each prompt's first line and the answer's last text", () => {
    const lines = resumeRecap({
      compaction: { type: "compaction", summary: "SUMMARY" },
      messages: [
        user(`fix the parser\n<file path="a.ts">\n${"SECRET-LOOKING CONTENT ".repeat(10)}\n</file>`),
        assistant([{ type: "text", text: "Looking." }, call("1", "read"), call("2", "grep")]),
        results({ id: "1", name: "read", text: "x" }, { id: "2", name: "grep", text: "y" }),
        assistant("Fixed it."),
      ],
    });
    expect(lines).toEqual([
      { kind: "collapsed", text: "… a compaction block (the summary of older turns)" },
      { kind: "user", text: "fix the parser …" },
      { kind: "answer", text: "(2 tool calls) Fixed it." },
    ]);
  });

  it("shows only the latest turns, the rest counted, and cuts a long line to one", () => {
    const long = "word ".repeat(60);
    const messages = ["one", "two", "three", long].flatMap((text) => [user(text), assistant(`re ${text}`)]);
    const lines = resumeRecap({ messages }, 2);
    expect(lines[0]).toEqual({ kind: "collapsed", text: "… 2 earlier turns" });
    expect(lines.map((line) => line.text)).not.toContain("one");
    expect(lines[1]).toEqual({ kind: "user", text: "three" });
    expect(lines[3]?.text.length).toBe(100);
    expect(lines[3]?.text.endsWith("…")).toBe(true);
    expect(resumeRecap({ messages: [] })).toEqual([]);
  });
});
