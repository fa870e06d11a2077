import { MarkdownStream } from "../frontends/terminal/toolkit/markdown-stream.js";
import { TerminalMarkdown } from "../frontends/terminal/toolkit/markdown-terminal.js";
import { growthExponent, type TimingStats, timingStats } from "./timing-stats.js";

/** One shape of answer streamed line by line: its name and its lines for a given length. */
interface Shape {
  name: string;
  lines: (count: number) => string[];
}

const WORDS = "the parser keeps each quoted field whole, commas and all, and the tests say so";

const SHAPES: readonly Shape[] = [
  { name: "one paragraph", lines: (count) => Array.from({ length: count }, (_, at) => `${WORDS} ${at}`) },
  {
    name: "a fenced code block",
    lines: (count) => [
      "```ts",
      ...Array.from({ length: count - 2 }, (_, at) => `const line${at} = ${at};`),
      "```",
    ],
  },
  { name: "a list", lines: (count) => Array.from({ length: count }, (_, at) => `- ${WORDS} ${at}`) },
];

/** Streams `lines` into a MarkdownStream one line a push, as the model's deltas arrive; returns ms. */
function streamOnce(lines: readonly string[]): number {
  const stream = new MarkdownStream(new TerminalMarkdown(() => 100));
  const started = performance.now();
  let written = 0;
  for (const line of lines) written += stream.push(`${line}\n`).length;
  written += stream.flush().length;
  if (written === 0) throw new Error("nothing rendered");
  return performance.now() - started;
}

export interface MarkdownStreamRow {
  shape: string;
  lines: number;
  stats: TimingStats;
}

/**
 * The interactive terminal's streamed Markdown: 500 to 2,000 lines of one block each (a paragraph,
 * a fence, a list), pushed a line at a time; the growth exponent says whether the cost is linear
 * in the block's length (1) or quadratic (2).
 */
export function runMarkdownStreamBenchmark(runs: number): {
  rows: MarkdownStreamRow[];
  exponents: Map<string, number>;
} {
  const rows: MarkdownStreamRow[] = [];
  const exponents = new Map<string, number>();
  for (const shape of SHAPES) {
    const points: Array<{ size: number; ms: number }> = [];
    for (const count of [500, 1000, 2000]) {
      const lines = shape.lines(count);
      streamOnce(lines);
      const stats = timingStats(Array.from({ length: runs }, () => streamOnce(lines)));
      rows.push({ shape: shape.name, lines: count, stats });
      points.push({ size: count, ms: stats.medianMs });
    }
    exponents.set(shape.name, growthExponent(points));
  }
  return { rows, exponents };
}
