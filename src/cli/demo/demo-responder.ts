import type { FakeReply, RecordedRequest } from "../../simulator/fake-provider-types.js";
import type { DemoStep } from "./demo-script.js";

/** The heading the compaction layer puts /compact instructions under (spec "Manual compaction instructions"). */
const INSTRUCTIONS_HEADING = "## Additional instructions for this compaction run";

/** What the demo's simulated model needs to know about one Anthropic Messages request. */
interface RequestView {
  system: string;
  /** Text of the latest user message that has text (a tool-result-only message has none). */
  userText: string;
  /** True when the latest message carries tool results: the model should answer now. */
  afterToolResult: boolean;
}

/**
 * The simulated model behind `panto demo`, answering Anthropic Messages requests. A compaction
 * request (its user prompt holds the `<transcript>` envelope) gets a plausible structured summary of
 * the steps it covers; an ordinary prompt gets its step's canned answer, after a tool call when the
 * step has one.
 */
export function createDemoResponder(steps: readonly DemoStep[]): (request: RecordedRequest) => FakeReply {
  return (request) => {
    const view = viewRequest(request.body);
    if (view.userText.includes("<transcript>")) {
      return { type: "text", text: simulatedSummary(steps, view.system, view.userText) };
    }
    const step = latestStep(steps, view.userText);
    if (step === undefined) {
      return { type: "text", text: "(simulated model) I only know the demo script's questions." };
    }
    if (step.toolCall !== undefined && !view.afterToolResult) {
      return { type: "tool-calls", text: "Let me read the file first.", calls: [step.toolCall] };
    }
    return { type: "text", text: step.answer };
  };
}

/** The step whose prompt appears last in the text (a compaction summary may quote earlier ones). */
function latestStep(steps: readonly DemoStep[], text: string): DemoStep | undefined {
  let best: { step: DemoStep; at: number } | undefined;
  for (const step of steps) {
    const at = text.lastIndexOf(step.prompt);
    if (at >= 0 && (best === undefined || at > best.at)) best = { step, at };
  }
  return best?.step;
}

function simulatedSummary(steps: readonly DemoStep[], system: string, userPrompt: string): string {
  const covered = steps.filter(
    (step) => userPrompt.includes(step.prompt) || userPrompt.includes(step.summaryLine),
  );
  const headingAt = system.indexOf(INSTRUCTIONS_HEADING);
  const instructions = headingAt < 0 ? "" : system.slice(headingAt + INSTRUCTIONS_HEADING.length).trim();
  const bugs = covered.flatMap((step) => step.bugs ?? []);
  const sections = [
    "## Goal\nMake the failing tests in src/parser.test.ts pass again after the user's tokenizer refactor (TypeScript expression parser in src/parser.ts).",
    `## Done so far\n${covered.map((step) => `- ${step.summaryLine}`).join("\n")}`,
  ];
  if (bugs.length > 0) {
    const heading = /bug/i.test(instructions) ? "## Bug list (kept in full, as instructed)" : "## Bugs found";
    sections.push(`${heading}\n${bugs.join("\n")}`);
  }
  sections.push(
    "## Next steps\n- Apply the agreed fixes in src/parser.ts, add the named tests, run npx vitest run src/parser.test.ts.",
  );
  if (instructions !== "") sections.push(`## Instructions for this compaction\n- ${instructions}`);
  return sections.join("\n\n");
}

function viewRequest(body: unknown): RequestView {
  const request = (body ?? {}) as { system?: unknown; messages?: unknown };
  const messages = Array.isArray(request.messages)
    ? (request.messages as Array<{ role?: unknown; content?: unknown }>)
    : [];
  const blocksOf = (content: unknown): Array<{ type?: unknown; text?: unknown }> =>
    typeof content === "string" ? [{ type: "text", text: content }] : Array.isArray(content) ? content : [];
  const textOf = (content: unknown): string =>
    blocksOf(content)
      .filter((block) => block.type === "text" && typeof block.text === "string")
      .map((block) => block.text as string)
      .join("\n");
  const last = messages.at(-1);
  const userText = [...messages]
    .reverse()
    .find((message) => message.role === "user" && textOf(message.content) !== "");
  return {
    system: textOf(request.system),
    userText: userText === undefined ? "" : textOf(userText.content),
    afterToolResult: blocksOf(last?.content).some((block) => block.type === "tool_result"),
  };
}
