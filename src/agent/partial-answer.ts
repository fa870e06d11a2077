import type {
  ApiKind,
  AssistantMessage,
  StreamEvent,
  TextBlock,
  ToolCallBlock,
  ToolResultBlock,
} from "../core/index.js";

/** The result given to a tool call that was streamed but never ran because the user interrupted. */
export const NOT_RUN_INTERRUPTED = "Not run: the user interrupted the answer before this tool call ran.";

/**
 * What an answer streamed before the user interrupted it: its text and its complete tool calls
 * (thinking is left out: a cut-off thinking block has no signature and cannot be sent back).
 */
export class PartialAnswer {
  #text = "";
  readonly #calls: ToolCallBlock[] = [];

  see(event: StreamEvent): void {
    if (event.type === "text-delta") this.#text += event.text;
    else if (event.type === "tool-call-end") this.#calls.push(event.call);
  }

  get empty(): boolean {
    return this.#text.trim() === "" && this.#calls.length === 0;
  }

  /** The kept answer, a valid assistant message marked `stopReason: "aborted"`. */
  message(identity: { provider: string; model: string; api: ApiKind }): AssistantMessage {
    const text: TextBlock[] = this.#text === "" ? [] : [{ type: "text", text: this.#text }];
    return { role: "assistant", content: [...text, ...this.#calls], ...identity, stopReason: "aborted" };
  }

  /** One result per tool call of the kept answer, saying it never ran, so tool pairing holds. */
  notRunResults(): ToolResultBlock[] {
    return this.#calls.map((call) => ({
      type: "tool-result",
      toolCallId: call.id,
      toolName: call.name,
      content: [{ type: "text", text: NOT_RUN_INTERRUPTED }],
      isError: true,
    }));
  }
}
