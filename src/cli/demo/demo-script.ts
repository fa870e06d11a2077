/**
 * The scripted session `panto demo` plays: a small TypeScript project with a buggy parser, the
 * user's prompts, and the simulated model's canned answers. Plain data, so the script reads as a
 * story and the responder stays generic.
 */

export interface DemoStep {
  /** What the user types. */
  prompt: string;
  /** A tool the simulated model calls first (its result comes back before the answer). */
  toolCall?: { name: string; arguments: Record<string, unknown> };
  /** The final answer. */
  answer: string;
  /** One line for the simulated summary's "done" list once this step has been summarised. */
  summaryLine: string;
  /** Bugs this step found, for the summary's bug list. */
  bugs?: string[];
}

export const DEMO_FILES: Record<string, string> = {
  "src/parser.ts": `export type Token = { kind: "num" | "op" | "paren"; text: string; pos: number };

const OPERATORS = "+-*/";

export function tokenize(input: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i <= input.length) {
    while (input[i] === " ") i++;
    const ch = input[i] ?? "";
    if (OPERATORS.includes(ch)) {
      tokens.push({ kind: "op", text: ch, pos: i });
      i++;
    } else if (ch === "(" || ch === ")") {
      tokens.push({ kind: "paren", text: ch, pos: i });
      i++;
    } else {
      let j = i;
      while (j < input.length && /[0-9.]/.test(input[j] ?? "")) j++;
      tokens.push({ kind: "num", text: input.slice(i, j), pos: i });
      i = j === i ? i + 1 : j;
    }
  }
  return tokens;
}

export function parseNumber(token: Token): number {
  const value = Number(token.text);
  if (Number.isNaN(value)) throw new Error(\`bad number "\${token.text}"\`);
  return value;
}
`,
  "src/parser.test.ts": `import { expect, test } from "vitest";
import { tokenize } from "../parser.js";

test("tokenizes 1 + 2", () => {
  expect(tokenize("1 + 2").map((t) => t.text)).toEqual(["1", "+", "2"]);
});
`,
};

export const DEMO_STEPS: DemoStep[] = [
  {
    prompt:
      "The tests in src/parser.test.ts fail since my tokenizer refactor. Can you look at src/parser.ts and tell me what is wrong?",
    toolCall: { name: "read", arguments: { path: "src/parser.ts" } },
    answer: `I read src/parser.ts. Two bugs explain the failing test:

1. Off-by-one in \`tokenize\`: the loop runs \`while (i <= input.length)\`, so the last pass reads past the end and pushes an empty "num" token. That is the extra "" the test sees after "2".
2. Whitespace: the inner loop skips only " ", so a tab or newline becomes a "num" token with empty text and \`parseNumber\` later throws \`bad number ""\`.

Both live in \`tokenize\` (lines 7-24). The fix for 1 is \`i < input.length\`; for 2, skip \`/\\s/\` instead of " ".`,
    summaryLine:
      'Read src/parser.ts; found bug 1 (tokenize loops to i <= input.length and pushes an empty token) and bug 2 (only " " is skipped, tabs/newlines become empty tokens).',
    bugs: [
      "1. tokenize loops while i <= input.length and pushes an empty token (src/parser.ts, fix: i < input.length).",
      '2. only " " is skipped; tabs and newlines become empty tokens (fix: skip /\\s/).',
    ],
  },
  {
    prompt: "Also, negative numbers come out positive: parse('-3') gives 3. Why?",
    answer: `Because the minus sign never reaches \`parseNumber\`. \`tokenize\` sees "-" in OPERATORS and emits it as an operator token, then "3" as a separate number token, and the expression parser treats the leading "-" as a binary operator with a missing left operand, which it silently drops.

That is bug 3. The usual fix is in the parser, not the tokenizer: when an "op" token "-" appears where an operand is expected (start of input, after "(" or after another operator), parse it as unary minus:

    if (token.kind === "op" && token.text === "-" && expectOperand) {
      return -parseOperand(next());
    }

This keeps "1 - 3" working and makes "-3", "2 * -3" and "(-3)" correct.`,
    summaryLine:
      "Found bug 3: a leading '-' is tokenised as a binary operator and dropped, so parse('-3') gives 3; fix by parsing unary minus where an operand is expected.",
    bugs: [
      "3. a leading \"-\" is read as a binary operator, so parse('-3') gives 3 (fix: unary minus in the parser).",
    ],
  },
  {
    prompt: "Write a plan to fix all three bugs, with the test we should add for each.",
    answer: `Plan, smallest risk first:

1. Bug 1 (off-by-one in tokenize)
   - Change: \`while (i < input.length)\` in src/parser.ts.
   - Test: tokenize("1 + 2") yields exactly ["1", "+", "2"] (the existing test, which should pass again).

2. Bug 2 (only spaces skipped)
   - Change: replace \`while (input[i] === " ") i++\` with \`while (/\\s/.test(input[i] ?? "")) i++\`.
   - Test: tokenize("1\\t+\\n2") yields ["1", "+", "2"]; no empty tokens.

3. Bug 3 (unary minus)
   - Change: in the expression parser, treat "-" as unary when an operand is expected (start, after "(", after an operator).
   - Tests: parse("-3") === -3, parse("2 * -3") === -6, parse("(-3)") === -3, and parse("1 - 3") === -2 stays.

Then run \`npx vitest run src/parser.test.ts\` and the whole suite. I would do 1 and 2 in one commit ("tokenizer: stop at end of input, skip all whitespace") and 3 in its own.`,
    summaryLine:
      "Agreed a plan: fix bugs 1 and 2 in one commit (i < input.length; skip /\\s/), bug 3 in its own (unary minus in the parser), each with a named test; run npx vitest run src/parser.test.ts.",
  },
  {
    prompt: "One more thing: error messages should include the column. Where is the position computed?",
    answer: `Every token already carries \`pos\` (set from \`i\` in \`tokenize\`), but \`parseNumber\` throws \`bad number "…"\` without it, and the parser's errors do the same. That is bug 4: positions are computed and then lost.

Fix: include the column (pos + 1, 1-based) in each thrown message, e.g. \`bad number "x" at column 5\`, and add a test that parse("1 + x") throws /column 5/.`,
    summaryLine:
      "Found bug 4: tokens carry pos but errors drop it; report the 1-based column (pos + 1) in parseNumber and parser errors, test parse('1 + x') throws /column 5/.",
    bugs: ["4. errors drop the token position (fix: report column pos + 1 in every error message)."],
  },
  {
    prompt: "Thanks. Give me the bug list, one line each.",
    answer: `1. tokenize loops to i <= input.length and pushes an empty token (src/parser.ts).
2. Only " " is skipped; tabs and newlines become empty tokens.
3. Leading "-" is read as a binary operator, so parse('-3') gives 3.
4. Errors drop the token position; messages need the column.`,
    summaryLine: "Listed bugs 1-4 one line each for the user.",
  },
];

/** The manual compaction the demo runs at the end, with its instructions. */
export const DEMO_COMPACT_INSTRUCTIONS = "keep the bug list";
