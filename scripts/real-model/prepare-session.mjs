// Writes the earlier turns of a coding session (tool calls, results and failures included) through
// panto's own session store, so the built CLI can continue it with `panto -c`. A model this small
// does not call tools reliably, so the work it would have done is prepared here instead.
// Usage: node prepare-session.mjs PANTO_HOME PROJECT_DIR
import { newSessionPath, openSession } from "../../dist/session/index.js";

const [home, project] = process.argv.slice(2);
if (home === undefined || project === undefined) {
  console.error("usage: node prepare-session.mjs PANTO_HOME PROJECT_DIR");
  process.exit(2);
}

const FORMAT_TS = `export interface DateParts {
  year: number;
  month: number;
  day: number;
}

/** Formats a date as YYYY-MM-DD. Months are calendar months (1-12). */
export function formatDate(parts: DateParts): string {
  const month = parts.month;
  const day = parts.day;
  return parts.year + "-" + month + "-" + day;
}

export function parseDate(text: string): DateParts {
  const [year, month, day] = text.split("-").map(Number);
  if (!Number.isInteger(year)) throw new RangeError("bad year in " + text);
  return { year, month, day };
}
`;
const TEST_TS = `import { describe, expect, it } from "vitest";
import { formatDate, parseDate } from "../src/date/format.js";

describe("formatDate", () => {
  it("pads months and days", () => {
    expect(formatDate({ year: 2024, month: 3, day: 1 })).toBe("2024-03-01");
  });
  it("round-trips parseDate", () => {
    expect(formatDate(parseDate("2023-11-30"))).toBe("2023-11-30");
  });
});
`;

let callNumber = 0;
const meta = { provider: "llamacpp", api: "openai-chat", model: "prepared" };
const user = (text) => ({ role: "user", content: [{ type: "text", text }] });
const say = (text) => ({ role: "assistant", content: [{ type: "text", text }], ...meta, stopReason: "stop" });

/** One tool round: the call, then its result (isError for a failure). */
function tool(name, args, output, isError = false) {
  const id = `call_prepared_${++callNumber}`;
  return [
    {
      role: "assistant",
      content: [{ type: "tool-call", id, name, arguments: args }],
      ...meta,
      stopReason: "tool-use",
    },
    {
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: id,
          toolName: name,
          content: [{ type: "text", text: output }],
          isError,
        },
      ],
    },
  ];
}

const turns = [
  [
    user("The date tests fail since yesterday. Find out why. Keep the public API of formatDate unchanged."),
    ...tool(
      "bash",
      { command: "npm test -- test/date.test.ts" },
      "FAIL test/date.test.ts > formatDate > pads months and days\nAssertionError: expected '2024-3-1' to be '2024-03-01'\n\nTest Files  1 failed (1)\n     Tests  1 failed | 1 passed (2)",
      true,
    ),
    ...tool("read", { path: "src/date/format.ts" }, FORMAT_TS),
    ...tool("read", { path: "test/date.test.ts" }, TEST_TS),
    say(
      "formatDate joins the numbers without padding, so March 1st comes out as 2024-3-1. The test expects zero-padded months and days.",
    ),
  ],
  [
    user("Fix it. Use padStart rather than a lookup table. Never edit package-lock.json."),
    ...tool(
      "edit",
      {
        path: "src/date/format.ts",
        old: "const month = parts.month;",
        new: 'const month = String(parts.month).padStart(2, "0");',
      },
      "edited src/date/format.ts (1 replacement)",
    ),
    ...tool(
      "bash",
      { command: "npx tsc --noEmit" },
      "src/date/format.ts(10,10): error TS2322: Type 'number' is not assignable to type 'string'.",
      true,
    ),
    ...tool(
      "edit",
      {
        path: "src/date/format.ts",
        old: "const day = parts.day;",
        new: 'const day = String(parts.day).padStart(2, "0");',
      },
      "edited src/date/format.ts (1 replacement)",
    ),
    ...tool(
      "bash",
      { command: "npm test -- test/date.test.ts" },
      "Test Files  1 passed (1)\n     Tests  2 passed (2)",
    ),
    say("Months and days are now padded with padStart; the type error is gone and both date tests pass."),
  ],
  [
    user("Check whether anything else formats dates by hand."),
    ...tool(
      "grep",
      { pattern: "getMonth\\(\\)", path: "src" },
      'src/report/header.ts:14:  const stamp = now.getFullYear() + "-" + (now.getMonth() + 1);\nsrc/report/footer.ts:9:  return d.getFullYear() + "/" + d.getMonth();',
    ),
    ...tool(
      "read",
      { path: "src/report/footer.ts" },
      'export function footer(d: Date): string {\n  // Printed at the bottom of every report.\n  return d.getFullYear() + "/" + d.getMonth();\n}\n',
    ),
    say(
      "Two more places build dates by hand: src/report/header.ts (no padding) and src/report/footer.ts, which also uses the zero-based getMonth() without adding 1.",
    ),
  ],
  [
    user("Make both of them call formatDate. Run the whole test suite afterwards."),
    ...tool(
      "edit",
      {
        path: "src/report/footer.ts",
        old: 'return d.getFullYear() + "/" + d.getMonth();',
        new: "return formatDate({ year: d.getFullYear(), month: d.getMonth() + 1, day: d.getDate() });",
      },
      "edited src/report/footer.ts (1 replacement)",
    ),
    ...tool(
      "edit",
      {
        path: "src/report/header.ts",
        old: 'const stamp = now.getFullYear() + "-" + (now.getMonth() + 1);',
        new: "const stamp = formatDate({ year: now.getFullYear(), month: now.getMonth() + 1, day: now.getDate() });",
      },
      "edited src/report/header.ts (1 replacement)",
    ),
    ...tool(
      "bash",
      { command: "npm test" },
      "FAIL test/report.test.ts > footer > prints the date\nAssertionError: expected '2024-03-01' to be '2024/2'\n\nTest Files  1 failed | 6 passed (7)",
      true,
    ),
    say("The footer test still expects the old, wrong '2024/2' format. That expectation encoded the bug."),
  ],
  [
    user("Update that expectation to the padded format and run the suite again."),
    ...tool(
      "edit",
      { path: "test/report.test.ts", old: 'toBe("2024/2")', new: 'toBe("2024-03-01")' },
      "edited test/report.test.ts (1 replacement)",
    ),
    ...tool("bash", { command: "npm test" }, "Test Files  7 passed (7)\n     Tests  41 passed (41)"),
    say("All 41 tests pass. Dates are now formatted in one place, formatDate, everywhere."),
  ],
];

const path = newSessionPath(home, project);
const session = await openSession(path, { cwd: project, onWarning: (message) => console.error(message) });
for (const message of turns.flat()) await session.appendMessage(message);
await session.close();
console.log(path);
