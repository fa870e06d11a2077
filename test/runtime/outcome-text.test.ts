import { describe, expect, it } from "vitest";
import type { CompactionRecord } from "../../src/core/index.js";
import type { CommandOutcome } from "../../src/runtime/command-outcome.js";
import { describeOutcome } from "../../src/runtime/outcome-text.js";

const record: CompactionRecord = {
  summary: "s",
  trigger: "manual",
  model: "anthropic/claude-haiku-4-5",
  fellBack: false,
  turnsSummarised: 12,
  turnsKept: 3,
  tokensSummarised: 32000,
  tokensKept: 9000,
  summaryTokens: 700,
  sizeSources: { usage: 10, estimate: 5 },
};

describe("describeOutcome", () => {
  it("reports a failure as an error with its status, code and message, and no text", () => {
    expect(describeOutcome({ type: "failed", status: "usage", code: "usage", message: "bad" })).toEqual({
      text: "",
      error: { status: "usage", code: "usage", message: "bad" },
      exit: false,
    });
  });

  it("tells a cancelled, a refused and a failed compaction apart, listing each attempt", () => {
    const failed = (code: string, attempts: Array<{ model: string; message: string }>): CommandOutcome => ({
      type: "compaction-failed",
      code,
      message: "it broke",
      attempts,
    });
    expect(describeOutcome(failed("aborted", [])).error).toEqual({
      status: "interrupted",
      code: "aborted",
      message: "compaction cancelled; the session is unchanged",
    });
    expect(describeOutcome(failed("other", [])).error).toEqual({
      status: "failure",
      code: "other",
      message: "it broke; the context is unchanged",
    });
    expect(
      describeOutcome(
        failed("overloaded", [
          { model: "a/x", message: "529" },
          { model: "b/y", message: "down" },
        ]),
      ).error?.message,
    ).toBe(
      "compaction failed; the context is unchanged (the failure is recorded in the session).\n  a/x: 529\n  b/y: down",
    );
  });

  it("asks to leave only for /exit", () => {
    expect(describeOutcome({ type: "exit" })).toEqual({ text: "", exit: true });
    expect(describeOutcome({ type: "nothing-to-undo" }).exit).toBe(false);
  });

  it("gives every success its one line of text, the same the terminal and print mode show", () => {
    const cases: Array<[CommandOutcome, string | RegExp]> = [
      [
        { type: "compacted", record, tokensBefore: 41_000, tokensAfter: 9_000 },
        /^Compacted 12 turns into a summary; kept 3 turns verbatim\.\n {2}next request: 41k -> 9\.0k tokens, system prompt and tools included/,
      ],
      [
        { type: "nothing-to-compact", reason: "everything fits" },
        "Nothing to compact: everything fits. No model was called.",
      ],
      [
        {
          type: "uncompacted",
          compaction: { id: "c1", trigger: "manual", ts: "T" },
          tokensBefore: 900,
          tokensAfter: 4000,
          earlier: false,
        },
        "Undid the manual compaction c1 (T): the context is what it was before it, followed by everything written since (next request 900 -> 4.0k tokens, system prompt and tools included). It stays in the session file.\nNo compaction is in effect now.",
      ],
      [{ type: "nothing-to-undo" }, "Nothing to undo: no compaction is in effect."],
      [
        { type: "pinned", number: 2, text: "keep it" },
        "Pinned note 2: keep it\nThe model sees it from now on, word for word, through every compaction.",
      ],
      [{ type: "unpinned", number: 1, text: "old" }, "Unpinned note 1: old"],
      [{ type: "pins", pins: [] }, "No pinned notes. /pin TEXT adds one."],
      [{ type: "pins", pins: ["a", "b"] }, "Pinned notes:\n  1. a\n  2. b"],
      [
        {
          type: "summary-shown",
          compaction: { id: "c1", trigger: "overflow", ts: "T", model: "m/x" },
          text: "S",
        },
        "Summary in effect (overflow compaction c1, T, model m/x):\n\nS",
      ],
      [{ type: "no-summary" }, "No summary: no compaction is in effect."],
      [
        { type: "summary-edited", compactionId: "c2", summaryTokens: 120 },
        "Summary replaced: compaction c2 (trigger edited) now carries your text (~120 tokens). /uncompact brings back the previous one.",
      ],
      [{ type: "summary-unchanged" }, "The summary is unchanged; nothing was written."],
      [{ type: "model-switched", model: "openai/gpt-5" }, "Model: openai/gpt-5"],
      [
        { type: "model-switched", model: "openai/gpt-5", unchecked: "offline" },
        "Model: openai/gpt-5 (not checked against a model list: offline)",
      ],
      [
        {
          type: "models-listed",
          model: "openai/gpt-5",
          provider: "openai",
          listed: { type: "listed", ids: ["openai/gpt-5", "openai/o3"] },
          configured: ["openai/o3"],
        },
        "Model: openai/gpt-5\nopenai lists 2:\n  * openai/gpt-5\n    openai/o3\nConfigured:\n    openai/o3\n/model PROVIDER/MODEL switches (Tab completes); the choice is kept in the session.",
      ],
      [{ type: "session-cleared", path: "/s.jsonl" }, "Started a new session: /s.jsonl"],
      [{ type: "exported", target: "/x.html", entries: 1 }, "Exported 1 entry to /x.html"],
      [
        { type: "agents-file", path: "/p/AGENTS.md", existed: false, changed: true },
        "/init: wrote /p/AGENTS.md.",
      ],
      [
        { type: "agents-file", path: "/p/AGENTS.md", existed: true, changed: false },
        "/init: the model did not change /p/AGENTS.md.",
      ],
      [{ type: "info", topic: "cost", text: "table" }, "table"],
    ];
    for (const [outcome, text] of cases) {
      const report = describeOutcome(outcome);
      expect(report.error, outcome.type).toBeUndefined();
      if (typeof text === "string") expect(report.text, outcome.type).toBe(text);
      else expect(report.text, outcome.type).toMatch(text);
    }
  });
});

describe("describeOutcome for /handoff", () => {
  const parent = { id: "aaaaaaaa-1111", path: "/s/old.jsonl" };
  const session = { id: "bbbbbbbb-2222", path: "/s/new.jsonl" };

  it("shows a draft that was not started with how to start it, and says where a handoff went", () => {
    const drafted = describeOutcome({
      type: "handoff-drafted",
      draft: "# Handoff: x",
      goal: "x",
      model: "a/m",
    });
    expect(drafted.text).toMatch(
      /^# Handoff: x\n\n\(A handoff draft by a\/m; nothing was started\. Give --yes/,
    );
    const handed = describeOutcome({
      type: "handed-off",
      draft: "# Handoff: x",
      goal: "x",
      parent,
      session,
      answer: "On it.",
    });
    expect(handed.text).toBe(
      "Handed off to a new session bbbbbbbb (/s/new.jsonl); its first prompt is the draft, and recall there reaches this session too. The old session aaaaaaaa stays as it was: panto -r aaaaaaaa resumes it.\n\nOn it.",
    );
    expect(describeOutcome({ type: "handoff-cancelled" })).toEqual({
      text: "Handoff cancelled: no session was started.",
      exit: false,
    });
  });
});
