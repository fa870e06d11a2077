import { copyFile, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import type { EffectiveContext } from "../../src/core/index.js";
import { MISSING_RESULT_TEXT } from "../../src/core/index.js";
import { openSession } from "../../src/session/index.js";
import { makeTempDir, removeTempDir, warningSink } from "./session-test-helpers.js";

const fixture = join(import.meta.dirname, "fixtures", "golden-session.jsonl");
let dir: string;

beforeEach(async () => {
  dir = await makeTempDir();
});

afterEach(async () => {
  await removeTempDir(dir);
});

const anthropic = { provider: "anthropic", api: "anthropic-messages", model: "claude-sonnet-4-5" } as const;

/**
 * The fixture: a coding session that fixes a bug, adds a test, is compacted by hand (keeping the
 * second turn), runs the suite, fails a turn on overflow (a pasted CI log), and ends with a read
 * whose process was killed before the result was recorded.
 */
const expected: EffectiveContext = {
  compaction: {
    type: "compaction",
    summary:
      "## Goal\nKeep datekit's parseDate correct.\n\n## Done\n- parseDate returned zero-based months (`month - 1`); fixed in src/parse-date.ts to return calendar months. test/parse-date.test.ts passes.\n\n## Files\n- src/parse-date.ts: `parseDate(text)` splits on '-' and returns { year, month, day }.\n- test/parse-date.test.ts: ISO date test.",
  },
  messages: [
    { role: "user", content: [{ type: "text", text: "Thanks. Now add a test for leap years." }] },
    {
      role: "assistant",
      content: [
        {
          type: "tool-call",
          id: "toolu_05",
          name: "edit",
          arguments: {
            path: "test/parse-date.test.ts",
            old: "});\n",
            new: '});\n\nit("parses Feb 29 in a leap year", () => {\n  expect(parseDate("2024-02-29")).toEqual({ year: 2024, month: 2, day: 29 });\n});\n',
          },
        },
      ],
      ...anthropic,
      usage: { promptTokens: 5020, outputTokens: 140, resentOutputTokens: 140, cacheReadTokens: 3020 },
      stopReason: "tool-use",
    },
    {
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: "toolu_05",
          toolName: "edit",
          content: [{ type: "text", text: "Edited test/parse-date.test.ts (1 replacement)" }],
          isError: false,
        },
      ],
    },
    {
      role: "assistant",
      content: [{ type: "text", text: "Added a leap-year test for 2024-02-29." }],
      ...anthropic,
      usage: { promptTokens: 5230, outputTokens: 22, resentOutputTokens: 22, cacheReadTokens: 3230 },
      stopReason: "stop",
    },
    { role: "user", content: [{ type: "text", text: "Run the whole suite please" }] },
    {
      role: "assistant",
      content: [
        { type: "tool-call", id: "toolu_06", name: "bash", arguments: { command: "npx vitest run" } },
      ],
      ...anthropic,
      usage: { promptTokens: 1480, outputTokens: 30, resentOutputTokens: 30, cacheReadTokens: 0 },
      stopReason: "tool-use",
    },
    {
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: "toolu_06",
          toolName: "bash",
          content: [
            {
              type: "text",
              text: " ✗ test/format.test.ts (2 tests | 2 failed)\n   → formatDate pads months: expected '2024-3-01' to be '2024-03-01'\n\n Test Files  1 failed | 4 passed (5)\n",
            },
          ],
          isError: true,
        },
      ],
    },
    {
      role: "assistant",
      content: [
        {
          type: "text",
          text: "Two failures, both in test/format.test.ts: formatDate does not zero-pad the month. Unrelated to today's fix.",
        },
      ],
      ...anthropic,
      usage: { promptTokens: 1690, outputTokens: 35, resentOutputTokens: 35, cacheReadTokens: 0 },
      stopReason: "stop",
    },
    {
      role: "user",
      content: [{ type: "text", text: "Let's instead just look at the first failure: test/format.test.ts" }],
    },
    {
      role: "assistant",
      content: [
        { type: "tool-call", id: "toolu_07", name: "read", arguments: { path: "test/format.test.ts" } },
      ],
      ...anthropic,
      usage: { promptTokens: 1750, outputTokens: 28, resentOutputTokens: 28, cacheReadTokens: 0 },
      stopReason: "tool-use",
    },
    {
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: "toolu_07",
          toolName: "read",
          content: [{ type: "text", text: MISSING_RESULT_TEXT }],
          isError: true,
        },
      ],
    },
  ],
};

it("replays the golden session to exactly its effective context, and changes nothing in the file", async () => {
  const path = join(dir, "golden-session.jsonl");
  await copyFile(fixture, path);
  const { warnings, onWarning } = warningSink();
  const session = await openSession(path, { cwd: dir, onWarning });

  expect(session.header).toEqual({
    type: "session",
    version: 1,
    id: "6f1c2a9e-0d4b-4f7e-9a51-3c8e2b7d1f60",
    created: "2025-06-03T14:02:00.000Z",
    cwd: "/home/ana/src/datekit",
  });
  expect(session.effectiveContext()).toEqual(expected);
  expect(session.activeEntries().map((entry) => entry.id)).toEqual([
    "8f5c617a",
    "906d728b",
    "a17e839c",
    "b28f94ad",
    "c390a5be",
    "d4a1b6cf",
    "e5b2c7e1",
    "f6c3d8f2",
    "07d4ea03",
    "18e5fb14",
    "29f60c25",
    "3a071d36",
    "4b182e47",
  ]);
  expect(session.activeEntries()[0]).toMatchObject({
    type: "compaction",
    trigger: "manual",
    model: "anthropic/claude-haiku-4-5",
    instructions: "keep the date parsing details",
  });
  expect(warnings).toEqual([
    `${path}: tool call toolu_07 (read) has no recorded result; a synthetic error result stands in for it`,
  ]);
  await session.close();
  expect(await readFile(path, "utf8")).toBe(await readFile(fixture, "utf8"));
});
