import { withRestoredFacts } from "../../src/compaction/index.js";
import type {
  CompactionRecord,
  CompactionTurns,
  Message,
  ToolCallBlock,
  Turn,
} from "../../src/core/index.js";
import { openSession, type Session } from "../../src/session/index.js";

/** A coding session's first two turns: what the summary will stand for. */
export const SUMMARISED_PATHS = ["src/date.ts", "src/util.ts"];
export const SUMMARISED_COMMANDS = ["npm test -- date", "npx biome check ."];
export const SUMMARISED_ERRORS = [
  "FAIL src/date.test.ts > formats zero-padded months",
  "src/util.ts:3:1 lint/style/useConst: this let is never reassigned",
];
export const INSTRUCTIONS = [
  "Fix the failing date test.",
  "Please keep the public formatDate signature unchanged.",
  "Now run the linter.",
  "Never touch package-lock.json.",
];

function toolCall(id: string, name: string, args: Record<string, unknown>): ToolCallBlock {
  return { type: "tool-call", id, name, arguments: args };
}

function assistant(text: string, calls: ToolCallBlock[] = []): Message {
  return {
    role: "assistant",
    content: [...(text === "" ? [] : [{ type: "text" as const, text }]), ...calls],
    provider: "openai",
    api: "openai-chat",
    model: "gpt-test",
    usage: { promptTokens: 900, outputTokens: 40, resentOutputTokens: 40 },
    stopReason: calls.length > 0 ? "tool-use" : "stop",
  };
}

function result(id: string, toolName: string, text: string, isError = false): Message {
  return {
    role: "tool",
    content: [{ type: "tool-result", toolCallId: id, toolName, content: [{ type: "text", text }], isError }],
  };
}

function user(text: string): Message {
  return { role: "user", content: [{ type: "text", text }] };
}

/** Two turns of work with reads, edits, commands, failures and instructions. */
export function summarisedMessages(): Message[] {
  return [
    user(`${INSTRUCTIONS[0]} ${INSTRUCTIONS[1]}`),
    assistant("", [toolCall("c1", "read", { path: "src/date.ts" })]),
    result("c1", "read", "export function formatDate() {}"),
    assistant("", [toolCall("c2", "bash", { command: "npm test -- date" })]),
    result("c2", "bash", `${SUMMARISED_ERRORS[0]}\nExpected "03" got "3"`, true),
    assistant("The month was not padded; fixed."),
    user(`${INSTRUCTIONS[2]} ${INSTRUCTIONS[3]}`),
    assistant("", [toolCall("c3", "bash", { command: "npx biome check ." })]),
    result("c3", "bash", `\n${SUMMARISED_ERRORS[1]}\n`, true),
    assistant("", [toolCall("c4", "edit", { path: "src/util.ts", old: "let", new: "const" })]),
    result("c4", "edit", "edited"),
    assistant("Lint is clean."),
  ];
}

/** The turn kept verbatim after the compaction. */
export function keptMessages(): Message[] {
  return [user("What is left?"), assistant("Nothing; the tests and the linter pass.")];
}

/** A summary that keeps the first turn's facts and drops the second turn's path, command and error. */
export const LOSSY_SUMMARY =
  "The user asked to fix the failing date test and to keep the public formatDate signature unchanged. " +
  "I read src/date.ts and ran `npm test -- date`, which failed with FAIL src/date.test.ts > formats " +
  "zero-padded months; the month is now padded. Then the linter was run and fixed.";

export function compactionRecord(
  summary: string,
  overrides: Partial<CompactionRecord> = {},
): CompactionRecord {
  return {
    summary,
    trigger: "manual",
    model: "fake/gpt-summariser",
    fellBack: false,
    turnsSummarised: 2,
    turnsKept: 1,
    tokensSummarised: 400,
    tokensKept: 30,
    summaryTokens: 80,
    sizeSources: { usage: 3, estimate: 0 },
    ...overrides,
  };
}

/** The summarised messages as the turns the compaction grouped them into. */
export function summarisedTurns(): Turn[] {
  const messages = summarisedMessages();
  return [
    { start: 0, end: 6, messages: messages.slice(0, 6) },
    { start: 6, end: 12, messages: messages.slice(6) },
  ];
}

export interface SessionPlan {
  /** Messages before the compaction; default: summarised then kept. */
  before?: Message[];
  /** The compaction to append (restored facts worked out when `restore` is true); none when absent. */
  summary?: string;
  restore?: boolean;
  /** The turns the compaction records it stands for (written by panto since turns are numbered). */
  turns?: CompactionTurns;
  /** Messages after the compaction's kept copies. */
  after?: Message[];
  pins?: string[];
}

/** Writes a session through the real session store, as panto would have, and closes it. */
export async function writeFidelitySession(path: string, cwd: string, plan: SessionPlan = {}): Promise<void> {
  const session: Session = await openSession(path, { cwd, onWarning: () => {} });
  try {
    for (const pin of plan.pins ?? []) await session.appendPin(pin);
    for (const message of plan.before ?? [...summarisedMessages(), ...keptMessages()])
      await session.appendMessage(message);
    if (plan.summary !== undefined) {
      const record = compactionRecord(plan.summary, plan.turns === undefined ? {} : { turns: plan.turns });
      await session.appendCompaction(
        plan.restore === true ? withRestoredFacts(record, summarisedTurns()) : record,
        keptMessages(),
      );
    }
    for (const message of plan.after ?? []) await session.appendMessage(message);
  } finally {
    await session.close();
  }
}
