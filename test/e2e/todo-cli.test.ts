import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { FakeReply, RecordedRequest } from "../../src/simulator/fake-provider-types.js";
import { closeAfterEach } from "../support/close-after-each.js";
import { compactionCliProject } from "../support/compaction-cli-project.js";
import { bashCall, todoCall } from "../support/tool-calls.js";
import { jsonEvents, runCli } from "./run-cli.js";

/**
 * The todo tool end to end: the built CLI as a subprocess against the fake Anthropic server, a
 * scripted model calling the real tool, the list read back from the real session file by `/todo`,
 * flagged against real `npm test` runs, and carried by real compactions.
 */
const TIMEOUT = 120_000;
const MODEL = "anthropic/claude-active";
const closeAfter = closeAfterEach();

const bodyOf = (request: RecordedRequest | undefined): string => JSON.stringify(request?.body ?? null);
const toolsOf = (request: RecordedRequest | undefined): string =>
  JSON.stringify((request?.body as { tools?: unknown } | undefined)?.tools);
const systemOf = (request: RecordedRequest | undefined): string =>
  JSON.stringify((request?.body as { system?: unknown } | undefined)?.system);
const isSummaryRequest = (request: RecordedRequest): boolean => bodyOf(request).includes("<transcript>");

/** The text of the last tool result a request carries, and whether it was an error. */
function lastToolResult(request: RecordedRequest | undefined): { text: string; isError: boolean } {
  const messages = ((request?.body as { messages?: unknown[] } | undefined)?.messages ?? []) as Array<{
    content?: unknown;
  }>;
  for (const message of [...messages].reverse()) {
    if (!Array.isArray(message.content)) continue;
    const result = message.content.find((block: { type?: string }) => block.type === "tool_result") as
      | { content?: Array<{ text?: string }>; is_error?: boolean }
      | undefined;
    if (result !== undefined)
      return {
        text: (result.content ?? []).map((block) => block.text ?? "").join("\n"),
        isError: result.is_error === true,
      };
  }
  return { text: "", isError: false };
}

const overflow: FakeReply = {
  type: "error",
  status: 400,
  body: '{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 219898 tokens > 200000 maximum"}}',
};

async function project() {
  const t = await compactionCliProject(MODEL, closeAfter);
  await writeFile(join(t.project, "package.json"), JSON.stringify({ scripts: { test: "node check.cjs" } }));
  const tests = (passing: boolean) =>
    writeFile(
      join(t.project, "check.cjs"),
      passing
        ? 'console.log("12 tests passed");\n'
        : 'console.log("FAIL parser keeps comments");\nprocess.exit(1);\n',
    );
  return { ...t, tests };
}

describe("the todo tool through the CLI", () => {
  it(
    "replaces the whole list, refuses two items in progress naming them, and reports todo_updated in --json",
    async () => {
      const t = await project();
      t.server.enqueue(
        todoCall("toolu_t1", [
          { content: "Fix the parser", status: "in_progress" },
          { content: "Write the docs", status: "pending" },
        ]),
        todoCall("toolu_t2", [
          { content: "Fix the parser", status: "in_progress" },
          { content: "Write the docs", status: "in_progress" },
        ]),
        todoCall("toolu_t3", [
          { content: "Fix the parser", status: "completed" },
          { content: "Write the docs", status: "in_progress" },
          { content: "Old idea", status: "cancelled" },
        ]),
        { type: "text", text: "planned" },
      );
      const run = await t.run("plan the work", ["--json"]);
      expect(run.code, run.stderr).toBe(0);
      const [, refusedAt, acceptedAt] = t.server.requests.slice(-3);
      expect(lastToolResult(refusedAt)).toEqual({
        isError: true,
        text: 'todo: at most one item may be in_progress, and 2 are: "Fix the parser", "Write the docs". Mark the others pending (or completed), then call todo again with the whole list; the list was not changed.',
      });
      expect(lastToolResult(acceptedAt)).toEqual({
        isError: false,
        text: [
          "Task list updated: 1 of 2 completed.",
          "1. [completed] Fix the parser",
          "2. [in_progress] Write the docs",
          "3. [cancelled] Old idea",
        ].join("\n"),
      });
      // One event per accepted call, none for the refused one; cancelled items count in neither figure.
      const updates = jsonEvents(run.stdout).filter((event) => event.type === "todo_updated");
      expect(updates).toEqual([
        {
          type: "todo_updated",
          items: [
            { content: "Fix the parser", status: "in_progress" },
            { content: "Write the docs", status: "pending" },
          ],
          completed: 0,
          total: 2,
        },
        {
          type: "todo_updated",
          items: [
            { content: "Fix the parser", status: "completed" },
            { content: "Write the docs", status: "in_progress" },
            { content: "Old idea", status: "cancelled" },
          ],
          completed: 1,
          total: 2,
        },
      ]);
      // The todo tool is offered from the first request on, and the tool list never changes.
      const tools = t.server.requests.map(toolsOf);
      expect(tools[0]).toContain('"name":"todo"');
      expect(new Set(tools).size).toBe(1);
      // /todo reads the list back from the session file: the last accepted call's, replacing the first.
      const shown = await t.run("/todo");
      expect(shown.code, shown.stderr).toBe(0);
      expect(shown.stdout.trim()).toBe(
        [
          "Task list: 1 of 2 completed",
          "1. completed: Fix the parser",
          "2. in progress: Write the docs",
          "3. cancelled: Old idea",
        ].join("\n"),
      );
      // JSON mode gives the same text in its done event, as every command's outcome.
      const json = await t.run("/todo", ["--json"]);
      expect(jsonEvents(json.stdout).at(-1)).toMatchObject({
        type: "done",
        exit_code: 0,
        text: expect.stringContaining("Task list: 1 of 2 completed\n1. completed: Fix the parser"),
      });
    },
    TIMEOUT,
  );

  it(
    "flags an item completed against a failing npm test, to the model and in /todo, and clears the flag once it passes",
    async () => {
      const t = await project();
      await t.tests(false);
      t.server.enqueue(bashCall("toolu_b1", "npm test"), { type: "text", text: "ran" });
      expect((await t.run("run the tests", ["--allow-tools"])).code).toBe(0);
      t.server.enqueue(
        todoCall("toolu_t1", [
          { content: "Fix the parser", status: "completed", evidence: "npm test" },
          { content: "Touch up src/parser.ts", status: "completed", evidence: "src/parser.ts" },
        ]),
        { type: "text", text: "all done" },
      );
      const marked = await t.run("mark it done", ["--json"]);
      expect(marked.code, marked.stderr).toBe(0);
      const flag = "completed, but the latest `npm test` (turn 1) exited 1";
      const told = lastToolResult(t.server.requests.at(-1));
      expect(told.isError).toBe(false);
      expect(told.text).toContain(`1. [completed] Fix the parser (evidence: npm test)\n   flagged: ${flag}`);
      expect(told.text).toContain("1 completed item is flagged");
      expect(jsonEvents(marked.stdout).find((event) => event.type === "todo_updated")).toEqual({
        type: "todo_updated",
        items: [
          { content: "Fix the parser", status: "completed", evidence: "npm test", flag },
          { content: "Touch up src/parser.ts", status: "completed", evidence: "src/parser.ts" },
        ],
        completed: 2,
        total: 2,
      });
      const before = await t.run("/todo");
      expect(before.stdout).toContain(
        `1. completed: Fix the parser\n   evidence: \`npm test\` exited 1 in turn 1\n   flagged: ${flag}`,
      );
      expect(before.stdout).toContain("Task list: 2 of 2 completed (1 flagged)");
      expect(before.stdout).toContain("evidence: `src/parser.ts` not run or changed in this session");

      await t.tests(true);
      t.server.enqueue(bashCall("toolu_b2", "npm test"), { type: "text", text: "green" });
      expect((await t.run("run them again", ["--allow-tools"])).code).toBe(0);
      const after = await t.run("/todo");
      expect(after.stdout).toContain(
        "1. completed: Fix the parser\n   evidence: `npm test` passed in turn 3\n",
      );
      expect(after.stdout).not.toContain("flagged");
    },
    TIMEOUT,
  );

  it(
    "carries the list verbatim through /compact twice and an overflow, and tells each summariser it exists",
    async () => {
      const t = await project();
      const items = [
        { content: "Fix the parser", status: "completed" },
        { content: "Write the docs", status: "in_progress" },
        { content: "Release", status: "pending" },
      ];
      const section = [
        "## Task list (kept with the todo tool, as it stood at this compaction; a later todo call replaces it)",
        "1. [completed] Fix the parser",
        "2. [in_progress] Write the docs",
        "3. [pending] Release",
      ].join("\n");
      t.server.enqueue(todoCall("toolu_t1", items), { type: "text", text: "listed" });
      expect((await t.run("plan it")).code).toBe(0);
      const tools = toolsOf(t.server.requests.at(-1));

      for (const summary of ["SUMMARY-ONE", "SUMMARY-TWO"]) {
        t.server.enqueue({ type: "text", text: summary });
        const compacted = await t.run("/compact");
        expect(compacted.code, compacted.stderr).toBe(0);
        const summariser = t.server.requests.filter(isSummaryRequest).at(-1);
        expect(systemOf(summariser)).toContain(
          "The session has a task list, kept with the todo tool. panto carries the current list word for word",
        );
        t.server.enqueue({ type: "text", text: "ok" });
        expect((await t.run(`after ${summary}`)).code).toBe(0);
        const next = t.server.requests.at(-1);
        expect(bodyOf(next)).toContain(summary);
        expect(bodyOf(next)).toContain(JSON.stringify(section).slice(1, -1));
        // The call that set it was summarised away: the block is where the list now lives.
        expect(bodyOf(next)).not.toContain("toolu_t1");
        expect(toolsOf(next)).toBe(tools);
      }

      t.server.enqueue(overflow, { type: "text", text: "SUMMARY-THREE" }, { type: "text", text: "final" });
      const recovered = await t.run("p-overflow");
      expect(recovered.code, recovered.stderr).toBe(0);
      expect(systemOf(t.server.requests.filter(isSummaryRequest).at(-1))).toContain(
        "The session has a task list",
      );
      const retry = t.server.requests.at(-1);
      expect(bodyOf(retry)).toContain("SUMMARY-THREE");
      expect(bodyOf(retry)).toContain(JSON.stringify(section).slice(1, -1));
      // And /todo, in a fresh process resuming the session, still has it.
      const shown = await t.run("/todo");
      expect(shown.stdout).toContain(
        "1. completed: Fix the parser\n2. in progress: Write the docs\n3. pending: Release",
      );
    },
    TIMEOUT,
  );

  it(
    "a fork keeps the list as it stood at its turn, and after a rewind to before a todo call the list is the one before it",
    async () => {
      const t = await project();
      t.server.enqueue(todoCall("toolu_t1", [{ content: "Fix the parser", status: "pending" }]), {
        type: "text",
        text: "listed",
      });
      expect((await t.run("plan it")).code).toBe(0);
      t.server.enqueue(todoCall("toolu_t2", [{ content: "Fix the parser", status: "completed" }]), {
        type: "text",
        text: "done",
      });
      expect((await t.run("finish it")).code).toBe(0);
      expect((await t.run("/todo")).stdout).toContain("1. completed: Fix the parser");
      // A fork after turn 1 has the list as it stood then; a fork of all of it, the latest.
      const fork = (at: string) =>
        runCli(["-m", MODEL, "--fork", at, "-p", "/todo"], { cwd: t.project, env: t.env });
      expect((await fork(`${t.session}@1`)).stdout).toContain("1. pending: Fix the parser");
      expect((await fork(t.session)).stdout).toContain("1. completed: Fix the parser");
      const rewound = await runCli(["rewind", t.session, "--to", "2", "--conversation"], {
        cwd: t.project,
        env: t.env,
      });
      expect(rewound.code, rewound.stderr).toBe(0);
      expect((await t.run("/todo")).stdout).toContain(
        "Task list: 0 of 1 completed\n1. pending: Fix the parser",
      );
    },
    TIMEOUT,
  );
});
