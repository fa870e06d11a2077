import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  extractFacts,
  findMissingFacts,
  groupTurns,
  normaliseForMatch,
  withRestoredFacts,
} from "../../src/compaction/index.js";
import type { AssistantMessage, Message, ToolResultMessage } from "../../src/core/index.js";
import { buildConversation, conversationSpec } from "./conversation-arbitrary.js";

const user = (text: string): Message => ({ role: "user", content: [{ type: "text", text }] });
const calls = (...list: Array<[string, Record<string, unknown>]>): AssistantMessage => ({
  role: "assistant",
  provider: "anthropic",
  api: "anthropic-messages",
  model: "m",
  stopReason: "tool-use",
  content: list.map(([name, args], index) => ({
    type: "tool-call",
    id: `${name}${index}`,
    name,
    arguments: args,
  })),
});
const result = (name: string, text: string, isError: boolean): ToolResultMessage => ({
  role: "tool",
  content: [
    {
      type: "tool-result",
      toolCallId: `${name}0`,
      toolName: name,
      isError,
      content: [{ type: "text", text }],
    },
  ],
});

const conversation: Message[] = [
  user("look at the parser"),
  calls(["read", { path: "src/parser.ts" }], ["grep", { pattern: "TODO", path: "src" }]),
  result("read", "1\tconst x = 1;", false),
  user("run the tests"),
  calls(["bash", { command: "npm test -- parser" }]),
  result("bash", "\nError: expected 2 to be 3\n    at parser.test.ts:12\nExit code: 1", true),
  calls(
    ["read", { path: "src/parser.ts" }],
    ["glob", { pattern: "**/*.md" }],
    ["write", { path: "docs/x.md", content: "x" }],
  ),
];

describe("extractFacts", () => {
  it("collects tool paths, bash commands and the first line of failed results, newest first, each once", () => {
    expect(extractFacts(groupTurns(conversation))).toEqual([
      { kind: "path", text: "docs/x.md" },
      { kind: "path", text: "src/parser.ts" },
      { kind: "error", text: "Error: expected 2 to be 3" },
      { kind: "command", text: "npm test -- parser" },
      { kind: "path", text: "src" },
    ]);
  });

  it("caps a long error line", () => {
    const facts = extractFacts(groupTurns([user("x"), result("bash", "E".repeat(500), true)]));
    expect(facts[0]?.text).toHaveLength(200);
    expect(facts[0]?.text.endsWith("…")).toBe(true);
  });
});

describe("findMissingFacts", () => {
  it("keeps only the facts the summary does not mention, ignoring case, quotes and a leading ./", () => {
    const facts = extractFacts(groupTurns(conversation));
    const summary = "We read `./SRC/parser.ts` and ran 'npm test -- parser', which failed.";
    expect(findMissingFacts(facts, summary)).toEqual([
      { kind: "path", text: "docs/x.md" },
      { kind: "error", text: "Error: expected 2 to be 3" },
    ]);
  });

  it("stops at the caps, newest kept", () => {
    const facts = Array.from({ length: 30 }, (_, index) => ({
      kind: "path" as const,
      text: `file-${index}.ts`,
    }));
    expect(findMissingFacts(facts, "", { maxFacts: 3, maxChars: 1000 }).map((fact) => fact.text)).toEqual([
      "file-0.ts",
      "file-1.ts",
      "file-2.ts",
    ]);
    expect(findMissingFacts(facts, "", { maxFacts: 30, maxChars: 20 })).toHaveLength(2);
  });

  it("never restores what the summary already says, and restores everything else within the caps", () => {
    fc.assert(
      fc.property(
        conversationSpec,
        fc.array(fc.boolean(), { maxLength: 40 }),
        fc.string(),
        (spec, mention, noise) => {
          const turns = groupTurns(buildConversation(spec).messages);
          const facts = extractFacts(turns);
          const summary = [
            noise,
            ...facts.filter((_, index) => mention[index] === true).map((fact) => fact.text),
          ].join("\n");
          const restored = findMissingFacts(facts, summary, { maxFacts: 1000, maxChars: 1_000_000 });
          const said = normaliseForMatch(summary);
          for (const fact of restored) expect(said.includes(normaliseForMatch(fact.text))).toBe(false);
          for (const fact of facts)
            if (!said.includes(normaliseForMatch(fact.text)) && normaliseForMatch(fact.text) !== "")
              expect(restored).toContainEqual(fact);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe("withRestoredFacts", () => {
  it("adds the missing facts to the record, and nothing when the summary has them all", () => {
    const base = {
      summary:
        "read src/parser.ts and docs/x.md; `npm test -- parser` failed: error: expected 2 to be 3; searched src",
      trigger: "manual" as const,
      model: "m/x",
      fellBack: false,
      turnsSummarised: 2,
      turnsKept: 0,
      tokensSummarised: 10,
      tokensKept: 0,
      summaryTokens: 5,
      sizeSources: { usage: 0, estimate: 2 },
    };
    const turns = groupTurns(conversation);
    expect(withRestoredFacts(base, turns)).toEqual(base);
    expect(withRestoredFacts({ ...base, summary: "fixed it" }, turns).restored).toHaveLength(5);
  });
});
