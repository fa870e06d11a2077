import { PassThrough } from "node:stream";
import { stripVTControlCharacters } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import type { CompactionRecord } from "../../src/core/index.js";
import { createStyle } from "../../src/frontends/shared/style.js";
import { TerminalRenderer } from "../../src/frontends/terminal/toolkit/terminal-renderer.js";

/** A stream that records what is written to it, posing as a terminal of the given width. */
function screen(columns?: number): PassThrough & { isTTY: boolean; columns?: number; text(): string } {
  let written = "";
  const stream = Object.assign(new PassThrough(), {
    isTTY: columns !== undefined,
    ...(columns === undefined ? {} : { columns }),
    text: () => written,
  });
  stream.on("data", (chunk: Buffer) => {
    written += chunk.toString("utf8");
  });
  return stream;
}

const record: CompactionRecord = {
  summary: "s",
  trigger: "overflow",
  model: "anthropic/claude-test",
  fellBack: false,
  turnsSummarised: 3,
  turnsKept: 1,
  tokensSummarised: 900,
  tokensKept: 100,
  summaryTokens: 50,
  sizeSources: { usage: 3, estimate: 1 },
};

const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
let renderer: TerminalRenderer | undefined;

afterEach(() => {
  renderer?.reset();
  renderer = undefined;
});

describe("TerminalRenderer", () => {
  it("keeps the compaction spinner within one row of a narrow terminal", async () => {
    const out = screen(30);
    const err = screen(30);
    renderer = new TerminalRenderer(out, err, createStyle(false));
    renderer.render({
      type: "compaction-started",
      trigger: "manual",
      model: "anthropic/claude-sonnet-4-5",
      tokensBefore: 100,
    });
    renderer.render({ type: "compaction-progress", characters: 12_345 });
    await new Promise((resolve) => setTimeout(resolve, 250));
    const rows = stripVTControlCharacters(err.text())
      .split("\r")
      .filter((row) => row !== "");
    expect(rows.length).toBeGreaterThan(1);
    expect(rows.every((row) => row.length < 30)).toBe(true);
    expect(rows.at(-1)).toContain("12k chars");
  });

  it("clears the spinner's row before writing a line, so the line does not trail the spinner", async () => {
    const out = screen(120);
    const err = screen(120);
    renderer = new TerminalRenderer(out, err, createStyle(false));
    renderer.render({ type: "compaction-started", trigger: "manual", model: "m/x", tokensBefore: 100 });
    const before = err.text().length;
    renderer.warning("something happened");
    await flush();
    expect(err.text().slice(before)).toBe("\r\u001b[2K");
  });

  it("says why an overflow compaction starts, and then what it did", async () => {
    const out = screen();
    renderer = new TerminalRenderer(out, screen(), createStyle(false));
    renderer.render({ type: "compaction-started", trigger: "overflow", model: "m/x", tokensBefore: 100 });
    renderer.render({
      type: "compaction",
      compactionId: "c1",
      record,
      tokensBefore: 1000,
      tokensAfter: 200,
      durationMs: 10,
    });
    renderer.render({ type: "overflow-retry" });
    await flush();
    expect(out.text()).toBe(
      [
        "context overflow: the request is too large for the model; compacting older turns, then retrying once",
        "✓ context overflow: compacted 3 turns into a summary (kept 1 turn, next request 1.0k -> 200 tokens, model anthropic/claude-test, fell back: no)",
        "↻ retrying the request once against the compacted context",
        "",
      ].join("\n"),
    );
  });

  it("shows a failed compaction attempt when a fallback follows, and nothing when the user cancelled", async () => {
    const out = screen();
    renderer = new TerminalRenderer(out, screen(), createStyle(false));
    renderer.render({ type: "compaction-started", trigger: "manual", model: "m/small", tokensBefore: 100 });
    renderer.render({
      type: "compaction-attempt-failed",
      trigger: "manual",
      model: "m/small",
      code: "invalid_request",
      message: "unknown model",
    });
    renderer.render({ type: "compaction-started", trigger: "manual", model: "m/big", tokensBefore: 100 });
    await flush();
    expect(out.text()).toBe("warning: compaction with m/small failed (invalid_request): unknown model\n");
    renderer.render({
      type: "compaction-attempt-failed",
      trigger: "manual",
      model: "m/big",
      code: "aborted",
      message: "request aborted",
    });
    renderer.render({
      type: "compaction-failed",
      trigger: "manual",
      code: "aborted",
      message: "request aborted",
      attempts: [],
      durationMs: 10,
    });
    await flush();
    expect(out.text()).toBe("warning: compaction with m/small failed (invalid_request): unknown model\n");
  });

  it("leaves a plain answer's lines to the terminal, word-wraps thinking and notices, and ends the line before a notice", async () => {
    const out = screen(20);
    renderer = new TerminalRenderer(out, screen(20), createStyle(false));
    renderer.render({ type: "thinking-delta", text: "Let me think about this" });
    for (const piece of ["The quick br", "own fox jumps ov", "er the lazy dog"])
      renderer.render({ type: "text-delta", text: piece });
    renderer.render({ type: "overflow-retry" });
    await flush();
    expect(out.text()).toBe(
      "Let me think about\nthis\nThe quick brown fox jumps over the lazy dog\n↻ retrying the\nrequest once against\nthe compacted\ncontext\n",
    );
  });

  it("makes escape sequences in the model's text visible instead of obeying them", async () => {
    const out = screen();
    renderer = new TerminalRenderer(out, screen(), createStyle(false));
    renderer.render({ type: "text-delta", text: "hi \u001b[2J there\r\n" });
    await flush();
    expect(out.text()).toBe("hi \\u001b[2J there\n");
  });
});

describe("foreign text in notices", () => {
  it("makes control characters visible in warnings, retry reasons, failed compactions and tool names (fuzz find)", () => {
    const out = screen(80);
    renderer = new TerminalRenderer(out, screen(80), createStyle(true));
    renderer.render({ type: "warning", message: "entry of unknown type \u001b]0;pwned\u0007" });
    renderer.render({ type: "retry-wait", attempt: 1, delayMs: 10, reason: "overloaded \u001b[2J" });
    renderer.render({
      type: "tool-call",
      call: { type: "tool-call", id: "c", name: "bash\u001b[1A", arguments: { command: "ls" } },
    });
    // biome-ignore lint/suspicious/noControlCharactersInRegex: looking for control characters is the point.
    const shown = out.text().replace(/\u001b\[[0-9;]*m/g, "");
    // biome-ignore lint/suspicious/noControlCharactersInRegex: looking for control characters is the point.
    expect(shown).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/);
    expect(shown).toContain("\\u001b]0;pwned\\u0007");
    expect(shown).toContain("bash\\u001b[1A ls");
  });
});

describe("the status line while panto waits", () => {
  const call = { type: "tool-call" as const, id: "c1", name: "bash", arguments: { command: "npm test" } };

  it("says what it waits for from the request until the first token, and is erased before the token", () => {
    // stdout and stderr are one terminal here, so the order of what is written shows.
    const tty = screen(100);
    renderer = new TerminalRenderer(tty, tty, createStyle(false));
    renderer.render({ type: "request-started", model: "anthropic/claude-test" });
    const status = tty.text();
    expect(stripVTControlCharacters(status)).toMatch(
      /^\r⠋ waiting for anthropic\/claude-test… · 0s · Ctrl-C cancels$/,
    );
    // No colour: the only escape sequence is the one that clears the row.
    expect(status.split("\r\u001b[2K").join("")).not.toContain("\u001b");
    renderer.render({ type: "text-delta", text: "Hello there " });
    expect(tty.text().slice(status.length)).toBe("\r\u001b[2KHello there ");
  });

  it("names a running tool, and counts down a retry's delay", () => {
    const tty = screen(100);
    renderer = new TerminalRenderer(tty, tty, createStyle(true));
    renderer.render({ type: "tool-started", call });
    expect(stripVTControlCharacters(tty.text())).toContain("running bash npm test… · 0s · Ctrl-C cancels");
    // With colour on, the status is dim.
    expect(tty.text()).toContain("\u001b[2m");
    renderer.render({ type: "request-started", model: "m/x" });
    renderer.render({ type: "retry-wait", attempt: 2, delayMs: 5000, reason: "overloaded" });
    const rows = stripVTControlCharacters(tty.text()).split("\r");
    expect(rows).toContain("retrying in 5.0s (attempt 2): overloaded\n");
    expect(rows.at(-1)).toMatch(/^⠋ retrying in [45]\.\ds \(attempt 2: overloaded\)… · 0s · Ctrl-C cancels$/);
  });

  it("shows nothing when stderr is not a terminal", () => {
    const out = screen();
    const err = screen();
    renderer = new TerminalRenderer(out, err, createStyle(false));
    renderer.render({ type: "request-started", model: "m/x" });
    renderer.render({ type: "tool-started", call });
    renderer.render({ type: "text-delta", text: "Hi" });
    expect(err.text()).toBe("");
    expect(out.text()).toBe("Hi");
  });

  it("shows the task list when a todo call changes it, each status a word and a flag under its item", async () => {
    const out = screen(80);
    const err = screen(80);
    renderer = new TerminalRenderer(out, err, createStyle(false));
    renderer.render({
      type: "todo-updated",
      items: [
        {
          content: "Fix the parser",
          status: "completed",
          evidence: "npm test",
          flag: "completed, but the latest `npm test` (turn 2) exited 1",
        },
        { content: "Write the docs", status: "in_progress" },
        { content: "Clear \u001b[2J the screen", status: "pending" },
      ],
      completed: 1,
      total: 3,
    });
    await flush();
    // The model's text is shown, never obeyed.
    expect(out.text()).toContain("3. pending: Clear \\u001b[2J the screen");
    expect(stripVTControlCharacters(out.text() + err.text())).toContain(
      [
        "Task list: 1 of 3 completed (1 flagged)",
        "1. completed: Fix the parser",
        "   evidence: npm test",
        "   flagged: completed, but the latest `npm test` (turn 2) exited 1",
        "2. in progress: Write the docs",
      ].join("\n"),
    );
  });
});
