/** Published tokeniser counts the local estimate is measured against (see the table's comment). */

/**
 * Measurement table for the local estimate. No tokeniser runs offline here, so every reference is
 * a count published next to its tokeniser output:
 * - OpenAI cookbook "How to count tokens with tiktoken" (compare_encodings): exact counts for
 *   gpt2 and cl100k_base;
 * - microsoft/vscode-copilot-chat tokenizer tests: exact cl100k_base token ids;
 * - tiktoken ports' tests (Swift TokenEncoder, tinybpe, tiktoken-rs docs): exact cl100k_base ids;
 * - a GPT-2 BPE port's README (ChatGPTTokenizer) for a one-line Python call;
 * - lillytechsystems "Token Counting" guide: approximate o200k_base counts ("~") for pretty-printed
 *   JSON and a Python function, the only published JSON figure found.
 * `reference` is the largest published count across tokenisers (what the estimate must reach) and
 * `smallest` the smallest one (what "not absurdly large" is measured against).
 *
 * Measured (estimate / reference): prose 1.17-1.75, code 1.0-1.92 ("2 + 2 = 4" is exact: cl100k
 * keeps the space before a digit apart), JSON 1.46, CJK 1.13-1.56 (1.5 per character; cl100k
 * spends 1.0-1.33 on these samples, gpt2 1.56), emoji and mixed text 1.43-1.45.
 */
export const TOKEN_SAMPLES: ReadonlyArray<{
  kind: string;
  text: string;
  reference: number;
  smallest: number;
  source: string;
}> = [
  { kind: "prose", text: "This is some text", reference: 4, smallest: 4, source: "copilot cl100k" },
  {
    kind: "prose",
    text: "The quick brown fox jumps over the lazy dog",
    reference: 9,
    smallest: 9,
    source: "Swift TokenEncoder cl100k",
  },
  { kind: "prose", text: "tiktoken is great!", reference: 6, smallest: 6, source: "cookbook cl100k" },
  { kind: "prose", text: "Hello, world!", reference: 4, smallest: 4, source: "tiktoken-rs cl100k" },
  {
    kind: "prose",
    text: "antidisestablishmentarianism",
    reference: 6,
    smallest: 5,
    source: "cookbook cl100k 6, gpt2 5",
  },
  { kind: "prose", text: "indivisible", reference: 3, smallest: 3, source: "copilot cl100k" },
  {
    kind: "code",
    text: '"""\nThis is an example Python source file to use as test data.  It\'s pulled from the synth repo\nwith minor edits to make it',
    reference: 29,
    smallest: 29,
    source: "copilot cl100k",
  },
  {
    kind: "code",
    text: '"To the import {imp.module} as {imp.as_name}, we add the following comment: {description}")\n        return description',
    reference: 25,
    smallest: 25,
    source: "copilot cl100k",
  },
  { kind: "code", text: 'print("Hello world!")', reference: 6, smallest: 6, source: "ChatGPTTokenizer gpt2" },
  { kind: "code", text: "2 + 2 = 4", reference: 7, smallest: 5, source: "cookbook cl100k 7, gpt2 5" },
  {
    kind: "code",
    text: "def factorial(n):\n    if n <= 1:\n        return 1\n    return n * factorial(n - 1)",
    reference: 25,
    smallest: 25,
    source: "lillytech o200k (~)",
  },
  {
    kind: "json",
    text: '{\n  "name": "John Doe",\n  "age": 30,\n  "email": "john@example.com",\n  "active": true\n}',
    reference: 35,
    smallest: 35,
    source: "lillytech o200k (~)",
  },
  {
    kind: "cjk",
    text: "お誕生日おめでとう",
    reference: 14,
    smallest: 9,
    source: "cookbook gpt2 14, cl100k 9",
  },
  {
    kind: "cjk",
    text: "我可以吞下玻璃而不伤身体",
    reference: 16,
    smallest: 16,
    source: "Swift TokenEncoder cl100k",
  },
  {
    kind: "mixed",
    text: "👋 Hello, this is an example. 你好，这是一个例子。😁",
    reference: 22,
    smallest: 22,
    source: "tinybpe cl100k",
  },
  {
    kind: "emoji",
    text: "hello 👋 world 🌍",
    reference: 7,
    smallest: 6,
    source: "copilot cl100k 7, o200k 6",
  },
];
