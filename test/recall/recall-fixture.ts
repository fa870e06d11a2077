import { compactionTurns, groupTurns, type RetentionPlan } from "../../src/compaction/index.js";
import { type CompactionRecord, type Message, optional, type SizedTurn } from "../../src/core/index.js";
import { effectiveTurnNumbers, type Session } from "../../src/session/index.js";

/** Writes turns into a real session the way the agent does: user message, answers, tool calls and results. */
export class SessionWriter {
  #calls = 0;

  constructor(readonly session: Session) {}

  async user(text: string): Promise<void> {
    await this.session.appendMessage({ role: "user", content: [{ type: "text", text }] });
  }

  async assistant(text: string): Promise<void> {
    await this.session.appendMessage(assistant([{ type: "text", text }]));
  }

  /** One assistant message calling `name`, then its result. */
  async tool(name: string, args: Record<string, unknown>, result: string, isError = false): Promise<void> {
    const id = `call_${++this.#calls}`;
    await this.session.appendMessage(assistant([{ type: "tool-call", id, name, arguments: args }]));
    await this.session.appendMessage({
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: id,
          toolName: name,
          content: [{ type: "text", text: result }],
          isError,
        },
      ],
    });
  }

  /** A bash run with the tool's closing line. */
  async bash(command: string, output: string, exitCode: number): Promise<void> {
    await this.tool("bash", { command }, `${output}\n\nExit code: ${exitCode}`, exitCode !== 0);
  }

  /** A whole turn: the prompt and a plain answer. */
  async turn(prompt: string, answer = `answer to ${prompt}`): Promise<void> {
    await this.user(prompt);
    await this.assistant(answer);
  }

  /**
   * A compaction as the agent writes it: every turn of the context but the last `keep` summarised
   * into `summary`, the kept ones copied after it, the turns recorded.
   */
  async compact(summary: string, keep = 1): Promise<void> {
    const context = this.session.effectiveContext();
    const turns = groupTurns(context.messages).map(
      (turn): SizedTurn => ({ ...turn, tokens: 1, source: "estimate" }),
    );
    const plan: RetentionPlan = {
      summarise: turns.slice(0, turns.length - keep),
      keep: turns.slice(turns.length - keep),
      keptTokens: keep,
      summarisedTokens: turns.length - keep,
    };
    const numbering = effectiveTurnNumbers(this.session.activeEntries());
    const record: CompactionRecord = {
      summary,
      trigger: "manual",
      model: "fake/model",
      fellBack: false,
      turnsSummarised: plan.summarise.length,
      turnsKept: keep,
      tokensSummarised: 1,
      tokensKept: 1,
      summaryTokens: 1,
      sizeSources: { usage: 0, estimate: turns.length },
      ...optional("turns", numbering === undefined ? undefined : compactionTurns(plan, numbering)),
    };
    const kept: Message[] = plan.keep.flatMap((turn) => turn.messages);
    await this.session.appendCompaction(record, kept);
  }
}

function assistant(content: Extract<Message, { role: "assistant" }>["content"]): Message {
  return { role: "assistant", content, provider: "fake", api: "openai-chat", model: "m", stopReason: "stop" };
}
