import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type {
  AssistantMessage,
  CompactionRecord,
  Message,
  ToolCallBlock,
  ToolResultMessage,
  UserMessage,
} from "../../src/core/index.js";
import type { MessageEntry, Session, SessionHeader } from "../../src/session/index.js";

export function user(text: string): UserMessage {
  return { role: "user", content: [{ type: "text", text }] };
}

export function assistant(text: string, calls: ToolCallBlock[] = []): AssistantMessage {
  return {
    role: "assistant",
    content: [...(text === "" ? [] : [{ type: "text" as const, text }]), ...calls],
    provider: "anthropic",
    api: "anthropic-messages",
    model: "claude-sonnet-4-5",
    usage: { promptTokens: 1200, outputTokens: 80, resentOutputTokens: 80 },
    stopReason: calls.length > 0 ? "tool-use" : "stop",
  };
}

export function call(
  id: string,
  name = "bash",
  args: Record<string, unknown> = { command: "ls" },
): ToolCallBlock {
  return { type: "tool-call", id, name, arguments: args };
}

export function results(...ids: Array<string | [string, string]>): ToolResultMessage {
  return {
    role: "tool",
    content: ids.map((id) => {
      const [toolCallId, toolName] = typeof id === "string" ? [id, "bash"] : id;
      return {
        type: "tool-result",
        toolCallId,
        toolName,
        content: [{ type: "text", text: `ok ${toolCallId}` }],
        isError: false,
      };
    }),
  };
}

export function record(summary: string, overrides: Partial<CompactionRecord> = {}): CompactionRecord {
  return {
    summary,
    trigger: "manual",
    model: "anthropic/claude-sonnet-4-5",
    fellBack: false,
    turnsSummarised: 3,
    turnsKept: 1,
    tokensSummarised: 9000,
    tokensKept: 1200,
    summaryTokens: 400,
    sizeSources: { usage: 3, estimate: 1 },
    ...overrides,
  };
}

export function header(
  overrides: Partial<SessionHeader> | Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    type: "session",
    version: 1,
    id: "11111111-2222-3333-4444-555555555555",
    created: "2025-06-01T09:00:00.000Z",
    cwd: "/home/dev/project",
    ...overrides,
  };
}

let counter = 0;
/** A deterministic entry stamp for hand-built files. */
/**
 * One turn appended to `session`: the prompt, one call per id, their results (`bash`, with
 * `output(id)` as each one's text), and the answer.
 */
export async function appendToolTurn(
  session: Pick<Session, "appendMessage">,
  n: number,
  ids: readonly string[],
  output: (id: string) => string,
): Promise<void> {
  await session.appendMessage(user(`prompt ${n}`));
  await session.appendMessage(
    assistant(
      "",
      ids.map((id) => call(id)),
    ),
  );
  await session.appendMessage({
    role: "tool",
    content: ids.map((id) => ({
      type: "tool-result",
      toolCallId: id,
      toolName: "bash",
      content: [{ type: "text", text: output(id) }],
      isError: false,
    })),
  });
  await session.appendMessage(assistant(`answer ${n}`));
}

export function stamp(id?: string): { id: string; ts: string } {
  counter++;
  return { id: id ?? `e${counter.toString(16).padStart(7, "0")}`, ts: "2025-06-01T09:00:00.000Z" };
}

export function messageEntry(message: Message, id?: string): MessageEntry {
  return { type: "message", ...stamp(id), message };
}

export function jsonl(lines: readonly unknown[]): string {
  return `${lines.map((line) => (typeof line === "string" ? line : JSON.stringify(line))).join("\n")}\n`;
}

export async function makeTempDir(): Promise<string> {
  return await mkdtemp(join(tmpdir(), "panto-session-"));
}

export async function removeTempDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}

export async function writeSessionFile(path: string, lines: readonly unknown[]): Promise<void> {
  await writeFile(path, jsonl(lines), { mode: 0o600 });
}

export async function fileLines(path: string): Promise<string[]> {
  return (await readFile(path, "utf8")).split("\n");
}

/** Collects warnings for assertions. */
export function warningSink(): { warnings: string[]; onWarning: (message: string) => void } {
  const warnings: string[] = [];
  return { warnings, onWarning: (message) => warnings.push(message) };
}
