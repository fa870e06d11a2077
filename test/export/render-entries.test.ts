import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cleanText, htmlText } from "../../src/export/clean-text.js";
import { exportSession, memorySink } from "../../src/export/index.js";
import { createMarkdownRenderer } from "../../src/export/render-markdown.js";
import type { RequestPoint } from "../../src/export/scan-session.js";
import { niceCeiling, TIMELINE_BOX, timelineGeometry } from "../../src/export/timeline-geometry.js";

const HOSTILE = [
  "</script><script>alert(1)</script>",
  '<img src=x onerror="alert(2)">',
  "</pre></details></section><b>",
  '"><svg onload=alert(3)>',
].join("\n");

async function sessionFile(lines: unknown[]): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "panto-export-unit-"));
  const path = join(dir, "s.jsonl");
  const header = { type: "session", version: 1, id: "sess-1", created: "2026-01-01T00:00:00Z", cwd: "/p" };
  await writeFile(
    path,
    [header, ...lines].map((line) => (typeof line === "string" ? line : JSON.stringify(line))).join("\n") +
      "\n",
  );
  return path;
}

const user = (id: string, text: string) => ({
  type: "message",
  id,
  ts: "t",
  message: { role: "user", content: [{ type: "text", text }] },
});
const assistant = (id: string, text: string, promptTokens?: number) => ({
  type: "message",
  id,
  ts: "t",
  message: {
    role: "assistant",
    content: [{ type: "text", text }],
    provider: "anthropic",
    api: "anthropic-messages",
    model: "m",
    stopReason: "stop",
    ...(promptTokens === undefined
      ? {}
      : { usage: { promptTokens, outputTokens: 10, resentOutputTokens: 10 } }),
  },
});

async function exportHtml(
  lines: unknown[],
  options: { redact?: (text: string) => string; full?: boolean } = {},
): Promise<string> {
  const sink = memorySink();
  await exportSession({ path: await sessionFile(lines), format: "html", ...options }, sink);
  return sink.text();
}

/** Every <script> element of the page: there must be exactly the exporter's own one. */
const scripts = (html: string): string[] => html.match(/<script[\s>][\s\S]*?<\/script>/g) ?? [];

describe("escaping session content", () => {
  it("writes hostile prompts, answers, tool results, unknown entries and bad lines as text only", async () => {
    const toolResult = {
      type: "message",
      id: "r1",
      ts: "t",
      message: {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "c1",
            toolName: HOSTILE,
            content: [{ type: "text", text: HOSTILE }],
            isError: false,
          },
        ],
      },
    };
    const html = await exportHtml([
      user("u1", HOSTILE),
      assistant(
        "a1",
        `${HOSTILE}\n[x](javascript:alert(4)) [y](data:text/html,hi) ![t](http://evil.example/t.png)`,
        100,
      ),
      toolResult,
      { type: "brand-new", id: "n1", ts: HOSTILE, payload: HOSTILE },
      `{"type":"message", "id": "${"<script>".repeat(3)}`,
    ]);
    expect(scripts(html)).toHaveLength(1);
    expect(html).not.toMatch(/<img|<svg onload|<b>|onerror="|href="javascript|href="data|src="http/i);
    expect(html).toContain("&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).toContain("[image: t · http://evil.example/t.png, not loaded]");
    expect(html).toContain("Entry “brand-new”");
    expect(html).toContain("Unreadable line (not valid JSON)");
  });

  it("shows control characters as control pictures and lone surrogates as U+FFFD", () => {
    expect(cleanText("a\u0000b\u001bc\u007fd\u0085e\tf\n")).toBe("a\u2400b\u241bc\u2421d\uFFFDe\tf\n");
    expect(cleanText("x\ud800y\udc00z\ud83d\ude00")).toBe("x\uFFFDy\uFFFDz\ud83d\ude00");
    expect(htmlText(`'&"`, (text) => text)).toBe("&#39;&amp;&quot;");
  });

  it("applies the redactor to every session string it writes", async () => {
    const secret = "sk-ant-SECRET123";
    const html = await exportHtml(
      [
        user("u1", `key ${secret}`),
        assistant("a1", `**${secret}**`, 50),
        { type: "other", id: "o", ts: "t", key: secret },
      ],
      {
        redact: (text) => text.replaceAll(secret, "[redacted]"),
      },
    );
    expect(html).not.toContain(secret);
    expect(html.match(/\[redacted\]/g)?.length).toBeGreaterThanOrEqual(3);
  });

  it("cuts long tool results to 4,000 characters with the full length shown, and keeps them whole with full", async () => {
    const long = "x".repeat(10_000);
    const result = {
      type: "message",
      id: "r1",
      ts: "t",
      message: {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "c",
            toolName: "read",
            content: [{ type: "text", text: long }],
            isError: false,
          },
        ],
      },
    };
    const cut = await exportHtml([user("u1", "go"), result]);
    expect(cut).toContain("Cut to 4,000 of 10,000 characters");
    expect(cut).not.toContain("x".repeat(4001));
    expect(await exportHtml([user("u1", "go"), result], { full: true })).toContain(long);
  });
});

describe("Markdown", () => {
  it("renders Markdown, escapes raw HTML and keeps only http, https and mailto links", async () => {
    const render = await createMarkdownRenderer();
    const html = render(
      "# Title\n\n*em* `code` [ok](https://example.com) [mail](mailto:a@b.c) [bad](javascript:x) [rel](src/a.ts) <i>raw</i>\n\n```js\n</script>\n```",
    );
    expect(html).toContain("<h1>Title</h1>");
    expect(html).toContain("<em>em</em>");
    expect(html).toContain('<a href="https://example.com" rel="noreferrer noopener nofollow">ok</a>');
    expect(html).toContain('href="mailto:a@b.c"');
    expect(html).toContain("[bad](javascript:x)");
    expect(html).toContain("[rel](src/a.ts)");
    expect(html).toContain("&lt;i&gt;raw&lt;/i&gt;");
    expect(html).toContain('<code class="language-js">&lt;/script&gt;');
  });
});

describe("timeline geometry", () => {
  const points = (tokens: number[], estimated: number[] = []): RequestPoint[] =>
    tokens.map((value, index) => ({ tokens: value, estimated: estimated.includes(index), line: index + 2 }));
  const box = TIMELINE_BOX;
  const plotWidth = box.width - box.left - box.right;
  const plotHeight = box.height - box.top - box.bottom;

  it("places request i at the centre of slot i and scales y from 0 to a round maximum", () => {
    const geometry = timelineGeometry(points([50_000, 100_000, 150_000, 200_000], [2]), []);
    expect(geometry.maxTokens).toBe(niceCeiling(200_000 * 1.05));
    expect(geometry.maxTokens).toBe(500_000);
    expect(geometry.points.map((point) => point.x)).toEqual(
      [0.5, 1.5, 2.5, 3.5].map((slot) => box.left + (slot * plotWidth) / 4),
    );
    expect(geometry.points[3]?.y).toBeCloseTo(box.top + plotHeight * (1 - 200_000 / 500_000));
    expect(geometry.baseY).toBe(box.top + plotHeight);
    expect(geometry.points.map((point) => point.estimated)).toEqual([false, false, true, false]);
  });

  it("puts a compaction after k requests on the slot boundary, from its size before to after, and the window as a line", () => {
    const mark = {
      id: "c",
      line: 9,
      ordinal: 1,
      trigger: "overflow",
      status: "applied" as const,
      before: 180_000,
      after: 20_000,
      afterRequest: 2,
      keptOriginals: new Map(),
    };
    const geometry = timelineGeometry(points([100_000, 150_000, 30_000]), [mark], 200_000);
    expect(geometry.maxTokens).toBe(500_000);
    expect(geometry.markers[0]?.x).toBe(box.left + (2 * plotWidth) / 3);
    expect(geometry.markers[0]?.yBefore).toBeCloseTo(box.top + plotHeight * (1 - 180_000 / 500_000));
    expect(geometry.markers[0]?.yAfter).toBeCloseTo(box.top + plotHeight * (1 - 20_000 / 500_000));
    expect(geometry.windowY).toBeCloseTo(box.top + plotHeight * (1 - 200_000 / 500_000));
  });

  it("draws at most 2,000 points however many requests, keeping each bucket's largest size", () => {
    const many = points(Array.from({ length: 10_000 }, (_, index) => (index === 7_777 ? 90_000 : 1_000)));
    const geometry = timelineGeometry(many, []);
    expect(geometry.points).toHaveLength(2_000);
    expect(Math.max(...geometry.points.map((point) => point.tokens))).toBe(90_000);
  });
});

describe("timeline from a session file", () => {
  it("takes sizes from usage, estimates where usage is missing, and marks each compaction with its trigger and drop", async () => {
    const compaction = {
      type: "compaction",
      id: "c1",
      ts: "t",
      summary: "S",
      trigger: "overflow",
      model: "a/m",
      fellBack: false,
      turnsSummarised: 1,
      turnsKept: 1,
      tokensSummarised: 900,
      tokensKept: 100,
      summaryTokens: 20,
      sizeSources: { usage: 1, estimate: 0 },
      keptMessages: 1,
    };
    const html = await exportHtml([
      user("u1", "one"),
      assistant("a1", "first", 1_000),
      user("u2", "two"),
      compaction,
      { ...user("u2c", "two"), keptBy: "c1" },
      assistant("a2", "no usage"),
      {
        type: "compaction-failed",
        id: "f1",
        ts: "t",
        trigger: "manual",
        attempts: [{ model: "a/m", code: "server", message: "boom" }],
      },
    ]);
    // Before: the latest usage (1,000 prompt + 10 re-sent output) plus the estimate of the prompt after it;
    // after: that less the 900 tokens summarised, plus the 20-token summary.
    expect(html).toMatch(/Compaction 1 \(overflow\): 1,01\d → 13\d tokens \(−880\)/);
    expect(html).toContain("Compaction 2 (manual) failed");
    expect(html.match(/<a class="marker/g)).toHaveLength(2);
    expect(html).toContain("1 without usage: size estimated");
    expect(html).toMatch(/id="L2"[^>]*>.*summarised by <a href="#L5">compaction 1<\/a>/);
    expect(html).toMatch(/class="entry user kept"[^>]*id="L4"/);
    expect(html).toMatch(/class="entry user effective copy" id="L6"/);
  });
});

describe("model entries", () => {
  it("shows a /model switch in the page, the Markdown and the JSON export", async () => {
    const lines = [
      user("u1", "first"),
      { type: "model", id: "m1", ts: "t", model: "anthropic/claude-haiku-4-5" },
      assistant("a1", "answer"),
    ];
    const html = await exportHtml(lines);
    expect(html).toMatch(
      /class="entry model" id="L3"[\s\S]*?Model switched[\s\S]*?anthropic\/claude-haiku-4-5/,
    );
    const path = await sessionFile(lines);
    const markdown = memorySink();
    await exportSession({ path, format: "md" }, markdown);
    expect(markdown.text()).toContain("### model switched to anthropic/claude-haiku-4-5 · line 3");
    const json = memorySink();
    await exportSession({ path, format: "json" }, json);
    expect(json.text()).toContain('"model":"anthropic/claude-haiku-4-5"');
  });
});
