import { optional, PantoError } from "../core/index.js";

/**
 * A context overflow caused by the message itself: the turn in flight (the user's message and what
 * its turn brought in) does not fit the model's window even with the conversation before it
 * summarised. Compacting cannot help, so none is left in effect, and the hint never suggests it.
 */
export class MessageTooLargeError extends PantoError {
  /** The turn in flight's size, in the provider's tokens where known, else the local estimate. */
  readonly messageTokens: number;

  constructor(
    message: string,
    options: { messageTokens: number; contextWindow?: number; requestTokens?: number; cause?: unknown },
  ) {
    const { messageTokens, ...rest } = options;
    super("context_overflow", message, rest);
    this.name = "MessageTooLargeError";
    this.messageTokens = messageTokens;
  }
}

/** What the user can do about a message too large on its own. */
export const MESSAGE_TOO_LARGE_ADVICE =
  "Shorten the message, attach a file instead of pasting its text (ask the model to read the file " +
  "with its tools), or switch to a model with a larger context window (/model); for a local " +
  "server, raise its context size.";

export interface MessageTooLargeFacts {
  /** "provider/model" */
  model: string;
  /** The turn in flight's size. */
  messageTokens: number;
  /** panto's fixed overhead (system prompt and tool definitions), same units. */
  overheadTokens: number;
  /** The model's window, when an overflow error stated it. */
  contextWindow?: number;
  /** What was done with the conversation before it: nothing, or a compaction undone. */
  conversation: "untouched" | "compaction-undone";
}

/** The error for a message too large on its own, naming its size and what to do. */
export function messageTooLarge(facts: MessageTooLargeFacts, cause?: unknown): MessageTooLargeError {
  const limit =
    facts.contextWindow === undefined
      ? "more than the model accepts even with the rest of the conversation summarised"
      : `together more than ${facts.model}'s context window of ${facts.contextWindow} tokens`;
  const outcome =
    facts.conversation === "untouched"
      ? "Compacting older turns cannot help, so no summary was requested and the conversation is unchanged."
      : "Compacting older turns did not help, so that compaction was undone and the conversation is as it was.";
  const message =
    `your message is too large on its own: it and what its turn brought in (tool calls and results) ` +
    `come to about ${facts.messageTokens} tokens, and panto's fixed overhead (system prompt and tool ` +
    `definitions) to about ${facts.overheadTokens}: ${limit}. ${outcome} ${MESSAGE_TOO_LARGE_ADVICE}`;
  return new MessageTooLargeError(message, {
    messageTokens: facts.messageTokens,
    ...optional("contextWindow", facts.contextWindow),
    requestTokens: facts.messageTokens + facts.overheadTokens,
    ...optional("cause", cause),
  });
}
