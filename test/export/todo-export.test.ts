import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TODO_STATUSES } from "../../src/core/index.js";
import { flagsInTodoAnswer, todoAnswer } from "../../src/todos/index.js";
import { runCli } from "../e2e/run-cli.js";
import { closeAfterEach } from "../support/close-after-each.js";
import { compactionCliProject } from "../support/compaction-cli-project.js";
import { bashCall, todoCall } from "../support/tool-calls.js";

/**
 * `panto export --format html` shows the task list at each change: each accepted todo call as the
 * list it set, with statuses, evidence and the flags its answer gave, listed and marked on the
 * timeline. A real session made by the built CLI against the fake Anthropic server (a real failing
 * then passing `npm test`), exported by the built CLI, read as HTML and in a real browser.
 */
const MODEL = "anthropic/claude-active";
const CHROMIUM = "/usr/bin/chromium";
const closeAfter = closeAfterEach();

describe("the flags of a todo answer, read back", () => {
  const text = fc.string({ minLength: 1, maxLength: 40 });
  const item = fc.record(
    {
      content: text,
      status: fc.constantFrom(...TODO_STATUSES),
      evidence: text,
      flag: text,
    },
    { requiredKeys: ["content", "status"] },
  );

  it("gives each item the flag todoAnswer wrote under it, and no other", () => {
    fc.assert(
      fc.property(fc.array(item, { maxLength: 8 }), (items) => {
        const plain = items.map(({ flag: _flag, ...rest }) => rest);
        expect(flagsInTodoAnswer(plain, todoAnswer(items))).toEqual(items);
      }),
    );
  });

  it("gives the items unflagged when the answer is not todoAnswer's (a refusal, another text)", () => {
    const items = [{ content: "Run the tests", status: "completed" as const, evidence: "npm test" }];
    expect(flagsInTodoAnswer(items, "todo: at most one item may be in_progress")).toEqual(items);
    expect(
      flagsInTodoAnswer(items, todoAnswer([{ ...items[0], content: "Other", flag: "x" } as never])),
    ).toEqual(items);
  });
});

/** A session with two accepted lists (the first with a flagged item) and a refused call between them. */
async function sessionWithTwoLists() {
  const t = await compactionCliProject(MODEL, closeAfter);
  await writeFile(join(t.project, "package.json"), JSON.stringify({ scripts: { test: "node check.cjs" } }));
  const tests = (passing: boolean) =>
    writeFile(
      join(t.project, "check.cjs"),
      passing ? 'console.log("12 tests passed");\n' : 'console.log("FAIL parser");\nprocess.exit(1);\n',
    );
  await tests(false);
  t.server.enqueue(
    bashCall("toolu_b1", "npm test"),
    todoCall("toolu_t1", [
      { content: "Run the tests", status: "completed", evidence: "npm test" },
      { content: "Fix the <parser>", status: "in_progress", evidence: "src/parser.ts" },
      { content: "Rewrite the lexer", status: "cancelled" },
    ]),
    todoCall("toolu_refused", [
      { content: "REFUSED-ONE", status: "in_progress" },
      { content: "REFUSED-TWO", status: "in_progress" },
    ]),
    { type: "text", text: "Tests fail." },
  );
  expect((await t.run("fix the parser", ["--allow-tools"])).code).toBe(0);
  await tests(true);
  t.server.enqueue(
    bashCall("toolu_b2", "npm test"),
    todoCall("toolu_t2", [
      { content: "Run the tests", status: "completed", evidence: "npm test" },
      { content: "Fix the <parser>", status: "completed", evidence: "src/parser.ts" },
    ]),
    { type: "text", text: "All done." },
  );
  expect((await t.run("go on", ["--allow-tools"])).code).toBe(0);
  const exportAs = async (format: "html" | "md") => {
    const page = join(t.project, `page.${format}`);
    const exported = await runCli(["export", t.session, "--format", format, "-o", page], {
      cwd: t.project,
      env: t.env,
    });
    expect(exported.code, exported.stderr).toBe(0);
    return page;
  };
  const page = await exportAs("html");
  return { page, html: await readFile(page, "utf8"), exportAs };
}

describe("panto export --format html: the task list at each change", { timeout: 120_000 }, () => {
  it("renders each accepted list where its call's result is, with statuses, evidence and flags, and lists each change on the timeline", async () => {
    const { html, exportAs } = await sessionWithTwoLists();
    const lists = [...html.matchAll(/<section class="todo-list" id="(todo-\d+)"[^>]*>(.*?)<\/section>/g)];
    expect(lists.map((match) => match[1])).toEqual(["todo-1", "todo-2"]);
    const [first, second] = lists.map((match) => match[2] ?? "");
    expect(first).toContain("<h4>Task list 1: 1 of 2 completed (1 flagged)</h4>");
    expect(first).toContain(
      '<li class="todo completed flagged"><span class="status">completed</span> Run the tests <span class="evidence">evidence: <code>npm test</code></span><p class="flag">flagged: completed, but the latest `npm test` (turn 1) exited 1</p></li>',
    );
    // The model's text is escaped, never markup.
    expect(first).toContain(
      '<li class="todo in-progress"><span class="status">in progress</span> Fix the &lt;parser&gt; <span class="evidence">evidence: <code>src/parser.ts</code></span></li>',
    );
    expect(first).toContain(
      '<li class="todo cancelled"><span class="status">cancelled</span> Rewrite the lexer</li>',
    );
    // The second list as it stood then: the tests passed, so nothing is flagged.
    expect(second).toContain("<h4>Task list 2: 2 of 2 completed</h4>");
    expect(second).not.toContain("flagged");
    // The refused call set no list: it shows only as a call and its error.
    expect(html.match(/class="todo-list"/g)).toHaveLength(2);
    expect(html).not.toMatch(/<li class="todo[^"]*"><span class="status">in progress<\/span> REFUSED-ONE/);
    // Listed on the timeline, and marked on its chart, each linking to its list.
    expect(html).toContain(
      '<h3>Task list</h3><ol class="todo-marks"><li class="flagged"><a href="#todo-1">Task list 1: 1 of 2 completed (1 flagged)</a></li><li><a href="#todo-2">Task list 2: 2 of 2 completed</a></li></ol>',
    );
    expect(html.match(/<a class="todo-marker[^"]*" href="#todo-\d"/g)).toEqual([
      '<a class="todo-marker flagged" href="#todo-1"',
      '<a class="todo-marker" href="#todo-2"',
    ]);
    // The list sits just before the result of the call that set it.
    expect(html).toMatch(/<\/section><details class="tool-result"><summary>Result of <code>todo<\/code>/);

    // The Markdown export: the same lists, worded as /todo words them, and the timeline's list.
    const markdown = await readFile(await exportAs("md"), "utf8");
    expect(markdown).toContain(
      "**Task list 1: 1 of 2 completed (1 flagged)**\n\n1. completed: Run the tests (evidence: `npm test`)\n   flagged: completed, but the latest `npm test` (turn 1) exited 1\n2. in progress: Fix the <parser> (evidence: `src/parser.ts`)\n3. cancelled: Rewrite the lexer\n\n<details><summary>result of todo",
    );
    expect(markdown).toContain("**Task list 2: 2 of 2 completed**\n\n1. completed: Run the tests");
    expect(markdown).toMatch(
      /### Task list\n\n1\. Task list 1: 1 of 2 completed \(1 flagged\) \(after request \d+, line \d+\)\n2\. Task list 2: 2 of 2 completed \(after request \d+, line \d+\)\n\n## Entries/,
    );
    expect(markdown.match(/\*\*Task list \d/g)).toHaveLength(2);
  });

  it.skipIf(!existsSync(CHROMIUM))(
    "shows the lists in a real browser, each timeline marker leading to its list",
    async () => {
      const { page } = await sessionWithTwoLists();
      const { chromium } = await import("playwright-core");
      const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
      try {
        const tab = await browser.newPage({ viewport: { width: 1280, height: 1400 } });
        const errors: string[] = [];
        tab.on("pageerror", (error) => errors.push(error.message));
        tab.on("console", (message) => {
          if (message.type() === "error") errors.push(message.text());
        });
        await tab.goto(`file://${page}`);
        await tab.waitForLoadState("load");
        expect(await tab.locator("svg.timeline a.todo-marker").count()).toBe(2);
        await tab.locator("svg.timeline a.todo-marker").first().click();
        expect(new URL(tab.url()).hash).toBe("#todo-1");
        const first = tab.locator("#todo-1");
        expect(await first.isVisible()).toBe(true);
        expect(await first.locator("li.todo").count()).toBe(3);
        expect(await first.locator("li.flagged .flag").textContent()).toBe(
          "flagged: completed, but the latest `npm test` (turn 1) exited 1",
        );
        expect(await tab.locator("#todo-2 h4").textContent()).toBe("Task list 2: 2 of 2 completed");
        expect(await tab.locator("#todo-2").isVisible()).toBe(true);
        expect(errors).toEqual([]);
      } finally {
        await browser.close();
      }
    },
  );
});
