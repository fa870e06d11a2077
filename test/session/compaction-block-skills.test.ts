import { describe, expect, it } from "vitest";
import {
  composeCompactionSummary,
  LOADED_SKILLS_HEADING,
  RESTORED_FACTS_HEADING,
} from "../../src/session/compose-compaction-summary.js";
import { parseSessionLine } from "../../src/session/parse-session-line.js";

describe("skills in the compaction block", () => {
  it("are listed after the restored facts and before the pinned notes", () => {
    const text = composeCompactionSummary({
      summary: "Summary.",
      restored: [{ kind: "path", text: "src/a.ts" }],
      skills: ["deploy", "review"],
      pins: ["keep tests green"],
    });
    expect(text).toBe(
      [
        "Summary.",
        `${RESTORED_FACTS_HEADING}\n- path: src/a.ts`,
        `${LOADED_SKILLS_HEADING}\n- deploy\n- review`,
        "## Pinned notes (from the user, verbatim; always in force)\n1. keep tests green",
      ].join("\n\n"),
    );
    expect(composeCompactionSummary({ summary: "Summary.", skills: [] })).toBe("Summary.");
  });

  it("a compaction entry whose skills are not a list of names is an invalid line", () => {
    const entry = { type: "compaction", id: "c", ts: "t", summary: "s", trigger: "manual" };
    expect(parseSessionLine(JSON.stringify({ ...entry, skills: ["deploy"] }))).toMatchObject({
      kind: "entry",
    });
    expect(parseSessionLine(JSON.stringify({ ...entry, skills: [3] }))).toEqual({
      kind: "invalid",
      reason: "compaction entry whose skills are not a list of names",
      json: true,
    });
  });
});
