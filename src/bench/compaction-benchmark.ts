import { groupTurns, planRetention, serializeTranscript, sizeTurns } from "../compaction/index.js";
import type { AssistantMessage, Message } from "../core/index.js";

export interface CompactionPrepareBenchmarkResult {
  turns: number;
  medianMs: number;
}

/**
 * Times what a compaction does before its model call (group turns, size them, plan retention,
 * serialise the summarised prefix) over a synthetic session of `turns` turns, each a user prompt,
 * a tool call with usage, its result and a final answer with usage. Median of `runs` runs.
 */
export function runCompactionPrepareBenchmark(options: {
  turns: number;
  runs: number;
}): CompactionPrepareBenchmarkResult {
  const messages = buildSyntheticSession(options.turns);
  const timings: number[] = [];
  for (let run = 0; run < Math.max(1, options.runs); run++) {
    const started = performance.now();
    prepareCompaction(messages);
    timings.push(performance.now() - started);
  }
  return { turns: options.turns, medianMs: median(timings) };
}

function prepareCompaction(messages: readonly Message[]): number {
  const sized = sizeTurns(groupTurns(messages));
  const plan = planRetention(sized, { budgetTokens: 20_000, lastTurnInFlight: true });
  return serializeTranscript(plan.summarise.flatMap((turn) => turn.messages)).length;
}

/** A session whose usage is coherent, so sizing takes the usage path as it does in real sessions. */
export function buildSyntheticSession(turns: number): Message[] {
  const messages: Message[] = [];
  let prompt = 2_000;
  for (let turn = 0; turn < turns; turn++) {
    const path = `src/module-${turn % 97}/file-${turn}.ts`;
    messages.push({
      role: "user",
      content: [{ type: "text", text: `Turn ${turn}: fix the failing test in ${path}.` }],
    });
    prompt += 20;
    messages.push(
      assistant(prompt, 30, [
        { type: "tool-call", id: `call-${turn}`, name: "read_file", arguments: { path } },
      ]),
    );
    prompt += 30;
    const body =
      `export function value${turn}(input: number): number {\n  return input * ${turn};\n}\n`.repeat(8);
    messages.push({
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: `call-${turn}`,
          toolName: "read_file",
          isError: false,
          content: [{ type: "text", text: body }],
        },
      ],
    });
    prompt += 300;
    messages.push(
      assistant(prompt, 60, [{ type: "text", text: `Fixed ${path}: the multiplier was off by one.` }]),
    );
    prompt += 60;
  }
  return messages;
}

function assistant(
  promptTokens: number,
  output: number,
  content: AssistantMessage["content"],
): AssistantMessage {
  return {
    role: "assistant",
    provider: "anthropic",
    api: "anthropic-messages",
    model: "claude-sonnet-4-5",
    content,
    usage: { promptTokens, outputTokens: output, resentOutputTokens: output },
    stopReason: content.some((block) => block.type === "tool-call") ? "tool-use" : "stop",
  };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length % 2 === 1) return sorted[middle] ?? 0;
  return ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}
