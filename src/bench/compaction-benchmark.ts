import {
  buildCompactionRequest,
  groupTurns,
  planRetention,
  runCompaction,
  type SummariseFn,
  serializeTranscript,
  sizeTurns,
} from "../compaction/index.js";
import { type AssistantMessage, type Message, PantoError } from "../core/index.js";
import { type TimingStats, timingStats } from "./timing-stats.js";

export interface CompactionPrepareBenchmarkResult extends TimingStats {
  turns: number;
}

/**
 * Times what a compaction does before its model call (group turns, size them, plan retention,
 * serialise the summarised prefix, build the request) over a synthetic session of `turns` turns,
 * each a user prompt, a tool call with usage, its result and a final answer with usage. The
 * messages go through JSON once first, as they do when a session is read back from its file. One
 * untimed warm-up run, then `runs` timed ones. Without usage, sizing estimates every message: the
 * per-character scan the usage path mostly skips.
 */
export function runCompactionPrepareBenchmark(options: {
  turns: number;
  runs: number;
  /** False leaves out every message's usage, so every size is the local estimate. Default true. */
  usage?: boolean;
}): CompactionPrepareBenchmarkResult {
  const session = buildSyntheticSession(options.turns, { usage: options.usage ?? true });
  const messages = JSON.parse(JSON.stringify(session)) as Message[];
  prepareCompaction(messages);
  const timings: number[] = [];
  for (let run = 0; run < Math.max(1, options.runs); run++) {
    (globalThis as { gc?: () => void }).gc?.();
    const started = performance.now();
    prepareCompaction(messages);
    timings.push(performance.now() - started);
  }
  return { turns: options.turns, ...timingStats(timings) };
}

function prepareCompaction(messages: readonly Message[]): number {
  const sized = sizeTurns(groupTurns(messages));
  const plan = planRetention(sized, { budgetTokens: 20_000, lastTurnInFlight: true });
  const summarised: Message[] = [];
  for (const turn of plan.summarise) summarised.push(...turn.messages);
  const request = buildCompactionRequest({
    systemPrompt: "Summarise.",
    transcript: serializeTranscript(summarised),
    previousSummary: "The earlier summary.",
  });
  // Reading a character flattens the request text, as writing the request body would.
  return request.userPrompt.charCodeAt(request.userPrompt.length >> 1);
}

/**
 * A session whose usage is coherent, so sizing takes the usage path as it does in real sessions
 * (`usage: false` leaves usage out).
 */
export function buildSyntheticSession(
  turns: number,
  options: { usage: boolean } = { usage: true },
): Message[] {
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
      assistant(prompt, 30, options.usage, [
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
      assistant(prompt, 60, options.usage, [
        { type: "text", text: `Fixed ${path}: the multiplier was off by one.` },
      ]),
    );
    prompt += 60;
  }
  return messages;
}

function assistant(
  promptTokens: number,
  output: number,
  withUsage: boolean,
  content: AssistantMessage["content"],
): AssistantMessage {
  const message: AssistantMessage = {
    role: "assistant",
    provider: "anthropic",
    api: "anthropic-messages",
    model: "claude-sonnet-4-5",
    content,
    stopReason: content.some((block) => block.type === "tool-call") ? "tool-use" : "stop",
  };
  if (withUsage) message.usage = { promptTokens, outputTokens: output, resentOutputTokens: output };
  return message;
}

export interface ChunkedCompactionBenchmarkResult extends TimingStats {
  turns: number;
  /** Summary requests one compaction sent, the rejected ones included. */
  requests: number;
  chunks: number;
}

/**
 * Times a whole compaction (`runCompaction`) whose summary cannot go in one request: the synthetic
 * session of `turns` turns against an in-process summariser that counts a token per 6 characters
 * (well under panto's estimate) and rejects, stating its numbers as providers do, any request over `window` tokens. What it
 * measures is panto's own work around the model calls: sending whole, then cutting the chunks.
 */
export async function runChunkedCompactionBenchmark(options: {
  turns: number;
  runs: number;
  window: number;
}): Promise<ChunkedCompactionBenchmarkResult> {
  const messages = JSON.parse(JSON.stringify(buildSyntheticSession(options.turns))) as Message[];
  let requests = 0;
  const summarise: SummariseFn = async (_model, request) => {
    requests++;
    // Counted from the length alone, so the figure is panto's own work, not the fake provider's.
    const count = Math.ceil((request.systemPrompt.length + request.userPrompt.length) / 6);
    if (count > options.window)
      throw new PantoError(
        "context_overflow",
        `prompt is too long: ${count} tokens > ${options.window} maximum`,
        {
          requestTokens: count,
          inputTokens: count,
          contextWindow: options.window,
        },
      );
    return { text: `Summary ${requests}.` };
  };
  const compact = () =>
    runCompaction({
      context: { messages },
      trigger: "overflow",
      lastTurnInFlight: true,
      budgetTokens: 20_000,
      systemPrompt: "Summarise.",
      activeModel: "bench/model",
      summarise,
    });
  const first = await compact();
  const chunks = first.type === "compacted" ? (first.record.chunks ?? 1) : 0;
  const perCompaction = requests;
  const timings: number[] = [];
  for (let run = 0; run < Math.max(1, options.runs); run++) {
    (globalThis as { gc?: () => void }).gc?.();
    const started = performance.now();
    await compact();
    timings.push(performance.now() - started);
  }
  return { turns: options.turns, requests: perCompaction, chunks, ...timingStats(timings) };
}
