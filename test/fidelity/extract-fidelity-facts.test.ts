import { describe, expect, it } from "vitest";
import { groupTurns } from "../../src/compaction/index.js";
import type { Message } from "../../src/core/index.js";
import { extractFidelityFacts, extractInstructions, INSTRUCTION_CHARS } from "../../src/fidelity/index.js";
import { summarisedTurns } from "./fidelity-session.js";

function userTurns(...texts: string[]) {
  const messages: Message[] = texts.map((text) => ({ role: "user", content: [{ type: "text", text }] }));
  return groupTurns(messages);
}

describe("extractInstructions", () => {
  it("takes each sentence or line that reads as a request, oldest first, each once", () => {
    const turns = userTurns(
      "The build is slow. Please cache node_modules in CI.\n- run the tests with --coverage\nWhy is it slow?",
      "Then also bump the version to 2.4.0! Don't push to main. I think the cache helps.",
      "Please cache node_modules in CI.",
    );
    expect(extractInstructions(turns).map((fact) => fact.text)).toEqual([
      "Please cache node_modules in CI.",
      "run the tests with --coverage",
      "Then also bump the version to 2.4.0!",
      "Don't push to main.",
    ]);
  });

  it("skips requests with no term to score them by, and caps long ones", () => {
    const long = `Rename ${"the_identifier ".repeat(40)}everywhere.`;
    const facts = extractInstructions(userTurns("Fix it.", "Do it now.", long));
    expect(facts).toHaveLength(1);
    expect(facts[0]?.text).toHaveLength(INSTRUCTION_CHARS);
    expect(facts[0]?.text.endsWith("…")).toBe(true);
  });

  it("ignores tool results and assistant text: only the user's own words are instructions", () => {
    const messages: Message[] = [
      { role: "user", content: [{ type: "text", text: "Look at the logs." }] },
      {
        role: "assistant",
        content: [{ type: "text", text: "Please restart the server." }],
        provider: "x",
        api: "openai-chat",
        model: "m",
        stopReason: "stop",
      },
    ];
    expect(extractInstructions(groupTurns(messages)).map((fact) => fact.text)).toEqual(["Look at the logs."]);
  });
});

describe("extractFidelityFacts", () => {
  it("lists paths, commands, errors, then instructions, each kind oldest first", () => {
    expect(extractFidelityFacts(summarisedTurns())).toEqual([
      { kind: "path", text: "src/date.ts" },
      { kind: "path", text: "src/util.ts" },
      { kind: "command", text: "npm test -- date" },
      { kind: "command", text: "npx biome check ." },
      { kind: "error", text: "FAIL src/date.test.ts > formats zero-padded months" },
      { kind: "error", text: "src/util.ts:3:1 lint/style/useConst: this let is never reassigned" },
      { kind: "instruction", text: "Fix the failing date test." },
      { kind: "instruction", text: "Please keep the public formatDate signature unchanged." },
      { kind: "instruction", text: "Now run the linter." },
      { kind: "instruction", text: "Never touch package-lock.json." },
    ]);
  });
});
