import { describe, expect, it } from "vitest";
import type { CompactionRecord } from "../../src/core/index.js";
import { colourEnabled, createStyle } from "../../src/frontends/shared/style.js";
import { fitStatus } from "../../src/frontends/terminal/toolkit/status-line.js";
import {
  formatCompactionLine,
  formatCompactionReport,
  formatTokens,
  formatToolResult,
} from "../../src/runtime/format-text.js";

const record: CompactionRecord = {
  summary: "s",
  trigger: "overflow",
  model: "anthropic/claude-haiku-4-5",
  fellBack: false,
  turnsSummarised: 12,
  turnsKept: 3,
  tokensSummarised: 32000,
  tokensKept: 9000,
  summaryTokens: 700,
  sizeSources: { usage: 14, estimate: 1 },
};

describe("formatTokens", () => {
  it("shows small counts exactly and large ones in thousands", () => {
    expect([812, 1930, 41234].map(formatTokens)).toEqual(["812", "1.9k", "41k"]);
  });
});

describe("compaction notices", () => {
  it("says what was summarised, kept, the sizes, the model and whether it fell back, on one line", () => {
    expect(formatCompactionLine(record, 41000, 9000)).toBe(
      "compacted 12 turns into a summary (kept 3 turns, next request 41k -> 9.0k tokens, model anthropic/claude-haiku-4-5, fell back: no)",
    );
    expect(
      formatCompactionLine({ ...record, turnsSummarised: 1, turnsKept: 1, fellBack: true }, 900, 300),
    ).toBe(
      "compacted 1 turn into a summary (kept 1 turn, next request 900 -> 300 tokens, model anthropic/claude-haiku-4-5, fell back: yes)",
    );
  });

  it("reports /compact with sizes, model, fallback and the instructions", () => {
    const report = formatCompactionReport({ ...record, instructions: "keep the bug list" }, 41000, 9000);
    expect(report).toContain("Compacted 12 turns into a summary; kept 3 turns verbatim.");
    expect(report).toContain("next request: 41k -> 9.0k tokens, system prompt and tools included");
    expect(report).toContain("anthropic/claude-haiku-4-5 (fell back: no)");
    expect(report).toContain("instructions: keep the bug list");
  });
});

describe("how the summary was requested", () => {
  it("says a chunked summary's count of chunks and requests and the provider's numbers that rejected the whole", () => {
    const chunked: CompactionRecord = {
      ...record,
      chunks: 4,
      chunking: {
        reason: "rejected_whole",
        model: "anthropic/claude-haiku-4-5",
        requestTokens: 9120,
        contextWindow: 3000,
        requests: 5,
      },
    };
    expect(formatCompactionLine(chunked, 41000, 9000)).toBe(
      "compacted 12 turns into a summary (kept 3 turns, next request 41k -> 9.0k tokens, model anthropic/claude-haiku-4-5, fell back: no); " +
        "summarised in 4 chained chunks (5 summary requests): the whole transcript was rejected by anthropic/claude-haiku-4-5 (9120 tokens > 3000 maximum)",
    );
    expect(formatCompactionReport(chunked, 41000, 9000)).toContain(
      "  requests: in 4 chained chunks (5 summary requests): the whole transcript was rejected by anthropic/claude-haiku-4-5 (9120 tokens > 3000 maximum)",
    );
  });

  it("names the figures that proved the whole too large when it was cut up front, and says when it went whole", () => {
    const cut: CompactionRecord = {
      ...record,
      chunks: 3,
      chunking: {
        reason: "cut_up_front",
        model: "p/m",
        contextWindow: 3000,
        estimatedTokens: 20000,
        ratio: 0.5,
        leastTokens: 10000,
        requests: 3,
      },
    };
    expect(formatCompactionReport(cut, 41000, 9000)).toContain(
      "  requests: in 3 chained chunks (3 summary requests): cut up front, the provider's own figures put the whole at least 10000 tokens (20000 estimated x 0.50, the smallest ratio seen) > 3000 maximum for p/m",
    );
    expect(formatCompactionReport(record, 41000, 9000)).toContain(
      "  requests: the whole transcript in one summary request",
    );
    expect(formatCompactionLine(record, 41000, 9000)).not.toContain("chunks");
  });
});

describe("colour", () => {
  it("is used only on a terminal without NO_COLOR", () => {
    expect(colourEnabled({ isTTY: true }, {})).toBe(true);
    expect(colourEnabled({ isTTY: true }, { NO_COLOR: "1" })).toBe(false);
    expect(colourEnabled({ isTTY: false }, {})).toBe(false);
    expect(colourEnabled({}, {})).toBe(false);
  });

  it("adds no escape codes when off", () => {
    expect(createStyle(false).red("x")).toBe("x");
    expect(createStyle(true).red("x")).toBe("\u001b[31mx\u001b[39m");
  });
});

describe("formatToolResult", () => {
  const result = (text: string, isError: boolean) => ({
    type: "tool-result" as const,
    toolCallId: "c1",
    toolName: "bash",
    content: [{ type: "text" as const, text }],
    isError,
  });

  it("shows a failed result's last line too, where a command says how it ended", () => {
    expect(formatToolResult(result("(no output)\n\nCommand aborted and killed", true))).toBe(
      "error: (no output) … Command aborted and killed",
    );
    expect(formatToolResult(result("a\nb\n\nc\n\nExit code: 1", true))).toBe(
      "error: a … Exit code: 1 (+2 lines)",
    );
  });

  it("shows only the first line of a successful result, not counting blank lines and exit status 0", () => {
    expect(formatToolResult(result("hi\nthere\n\nExit code: 0", false))).toBe("hi (+1 line)");
    expect(formatToolResult(result("hi\n\nExit code: 0", false))).toBe("hi");
    expect(formatToolResult(result("one\n\n\ntwo\nthree", false))).toBe("one (+2 lines)");
  });
});

describe("fitStatus", () => {
  it("keeps a label with line breaks and escapes on one row, the escapes visible (fuzz find)", () => {
    const status = fitStatus("⠋", "running bash\nline two\u001b[2J", "", "3s", 60);
    expect(status).not.toContain("\n");
    expect(status).toContain("line two\\u001b[2J");
  });

  it("keeps the task list's count after the clock, and keeps it when the row is too narrow for the cancel hint", () => {
    const wide = fitStatus("⠋", "waiting for anthropic/claude-sonnet-4-5", "", "3s", 100, "tasks 3/7");
    expect(wide).toBe("⠋ waiting for anthropic/claude-sonnet-4-5… · 3s · tasks 3/7 · Ctrl-C cancels");
    const narrow = fitStatus(
      "⠋",
      "waiting for anthropic/claude-sonnet-4-5",
      "1.2k characters",
      "3s",
      30,
      "tasks 3/7",
    );
    expect(narrow).toBe("⠋ waiting… · 3s · tasks 3/7");
    const roomy = fitStatus(
      "⠋",
      "waiting for anthropic/claude-sonnet-4-5",
      "1.2k characters",
      "3s",
      40,
      "tasks 3/7",
    );
    expect(roomy).toBe("⠋ waiting… · 1.2k chars · 3s · tasks 3/7");
  });
});
