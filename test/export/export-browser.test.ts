import { existsSync } from "node:fs";
import { appendFile, mkdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startFakeAnthropicServer } from "../../src/simulator/fake-anthropic-server.js";
import type { FakeServer } from "../../src/simulator/fake-provider-types.js";
import { cliEnv, runCli, tempProject } from "../e2e/run-cli.js";

const CHROMIUM = "/usr/bin/chromium";

/** The little of the DOM these page functions use (the test is compiled without the DOM library). */
interface PageElement {
  getAttribute(name: string): string | null;
  querySelectorAll(selector: string): Iterable<PageElement>;
}
type PageGlobals = { document: { querySelector(selector: string): PageElement | null } };
const hasBrowser = existsSync(CHROMIUM);
if (!hasBrowser)
  console.warn(
    `export-browser.test.ts: skipped, ${CHROMIUM} is missing. Install it with: apt-get install -y chromium`,
  );

const servers: FakeServer[] = [];
afterAll(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const MODEL = "anthropic/claude-active";
const BIG_PROMPT = `first task ${"lorem ipsum dolor sit amet ".repeat(1200)}`;
/** Session content that would run a script, load something or break the page if it were markup. */
const HOSTILE = [
  "</script><script>window.__pwned = 1</script>",
  `<img src="x" onerror="window.__pwned = 2">`,
  "</pre></details></article><b>unbalanced",
  "control \u0001\u001b[31m chars",
].join("\n");
const overflow = {
  type: "error" as const,
  status: 400,
  body: '{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 219898 tokens > 200000 maximum"}}',
};

/** A real session made by the built CLI: tool calls, an overflow compaction, a manual one, then a failed one appended. */
async function buildSession(): Promise<{
  project: string;
  session: string;
  env: NodeJS.ProcessEnv;
  beacon: string;
}> {
  const server = await startFakeAnthropicServer();
  servers.push(server);
  const { home, project } = await tempProject();
  await mkdir(join(project, ".panto"), { recursive: true });
  await writeFile(join(project, ".panto", "config.json"), JSON.stringify({ keep_verbatim_tokens: 0 }));
  await writeFile(join(project, "notes.txt"), HOSTILE);
  const env = cliEnv(home, { ANTHROPIC_API_KEY: "test-key", ANTHROPIC_BASE_URL: server.url });
  const session = join(project, "s.jsonl");
  const beacon = `${server.url}/beacon.png`;
  const run = async (prompt: string) => {
    const result = await runCli(["-m", MODEL, "--session", session, "-p", prompt], { cwd: project, env });
    expect(result.code, result.stderr).toBe(0);
  };
  server.enqueue(
    { type: "tool-calls", calls: [{ id: "toolu_read1", name: "read", arguments: { path: "notes.txt" } }] },
    {
      type: "text",
      text: `Read it. **Bold** answer with [a bad link](javascript:window.__pwned=3), ![tracker](${beacon}) and ${HOSTILE}`,
    },
  );
  await run(BIG_PROMPT);
  server.enqueue({ type: "text", text: "second answer" });
  await run("second task");
  server.enqueue(
    overflow,
    { type: "text", text: "## Goal\nSUMMARY-ONE of the first tasks" },
    { type: "text", text: "third answer" },
  );
  await run("third task");
  server.enqueue({ type: "text", text: "fourth answer" });
  await run("fourth task");
  server.enqueue({ type: "text", text: "SUMMARY-TWO after a manual compaction" });
  await run("/compact");
  const failed = {
    type: "compaction-failed",
    id: "cf000001",
    ts: new Date().toISOString(),
    trigger: "manual",
    attempts: [{ model: MODEL, code: "server", message: `500 Internal server error ${HOSTILE}` }],
  };
  await appendFile(session, `${JSON.stringify(failed)}\n`);
  return { project, session, env, beacon };
}

describe.skipIf(!hasBrowser)("an exported session in a real browser", () => {
  it("shows one linked timeline marker per compaction, marks summarised turns, and loads and runs nothing", async () => {
    const { project, session, env } = await buildSession();
    const page = join(project, "page.html");
    const exported = await runCli(["export", session, "-o", page], { cwd: project, env });
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).toContain(page);
    expect(await readFile(page, "utf8")).not.toContain("<script>window.__pwned");

    const { chromium } = await import("playwright-core");
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--no-sandbox", "--disable-background-networking"],
    });
    try {
      const tab = await browser.newPage({ viewport: { width: 1280, height: 1400 } });
      const requests: string[] = [];
      const consoleErrors: string[] = [];
      tab.on("request", (request) => requests.push(request.url()));
      tab.on("console", (message) => {
        if (message.type() === "error") consoleErrors.push(message.text());
      });
      tab.on("pageerror", (error) => consoleErrors.push(error.message));
      const url = `file://${page}`;
      await tab.goto(url);
      await tab.waitForLoadState("load");

      const markers = await tab.$$eval("svg.timeline a.marker", (links) =>
        links.map((link) => {
          const target = (globalThis as unknown as PageGlobals).document.querySelector(
            link.getAttribute("href") ?? "#none",
          );
          return { classes: link.getAttribute("class"), target: target?.getAttribute("class") ?? null };
        }),
      );
      expect(markers).toHaveLength(3);
      expect(markers.map((marker) => marker.classes)).toEqual([
        "marker applied trigger-overflow",
        "marker applied trigger-manual",
        "marker failed trigger-manual",
      ]);
      for (const marker of markers) expect(marker.target).toMatch(/^compaction /);
      // Each compaction links to the first turn it replaced, and that turn is marked summarised.
      const replaced = await tab.$$eval("section.compaction:not(.failed)", (sections) =>
        sections.map((section) => {
          const link = Array.from(section.querySelectorAll("dd a"))[0];
          return (
            (globalThis as unknown as PageGlobals).document
              .querySelector(link?.getAttribute("href") ?? "#none")
              ?.getAttribute("class") ?? null
          );
        }),
      );
      expect(replaced).toHaveLength(2);
      for (const classes of replaced) expect(classes).toContain("summarised");
      expect(await tab.locator("article.entry.summarised").count()).toBeGreaterThan(3);
      expect(await tab.locator("article.entry.copy").count()).toBeGreaterThan(0);
      expect(await tab.locator("section.compaction.effective").count()).toBe(1);
      expect(await tab.locator("details.tool-result").count()).toBe(1);
      expect(await tab.locator("details.tool-result").getAttribute("open")).toBeNull();
      expect(await tab.locator('a[href^="javascript"]').count()).toBe(0);
      expect(await tab.locator("text=SUMMARY-TWO after a manual compaction").count()).toBe(1);
      expect(
        await tab.evaluate(() => (globalThis as unknown as { __pwned?: number }).__pwned),
      ).toBeUndefined();
      // The progressive-enhancement script ran (allowed by its hash) and added its buttons.
      expect(await tab.locator("#tools button").count()).toBe(2);
      expect(requests).toEqual([url]);
      expect(consoleErrors).toEqual([]);

      const screenshot = join(tmpdir(), "panto-export-screenshot.png");
      await tab.screenshot({ path: screenshot });
      console.info(`export-browser.test.ts: screenshot saved to ${screenshot}`);
    } finally {
      await browser.close();
    }
  }, 150_000);
});
