import { optional, PantoError } from "../core/index.js";

/**
 * A context overflow caused by the message itself: the turn in flight (the user's message and what
 * its turn brought in) does not fit the model's window even with the conversation before it
 * summarised. Compacting cannot help, so none is left in effect, and the hint never suggests it.
 * panto says so only on the provider's own figures (see `provider-figures.ts`), never its estimate.
 */
export class MessageTooLargeError extends PantoError {
  /**
   * The turn in flight's size by the provider's count, at least (with the fixed overhead where the
   * figures cannot tell them apart); undefined when the provider stated no numbers.
   */
  readonly messageTokens: number | undefined;

  constructor(
    message: string,
    options: { messageTokens?: number; contextWindow?: number; requestTokens?: number; cause?: unknown },
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

/** The provider's figures a refusal rests on, as the message states them. */
export type TooLargeEvidence =
  /** The rejected request minus the latest one the provider accepted on the same context. */
  | {
      type: "previous-request";
      requestTokens: number;
      acceptedTokens: number;
      answerTokens: number;
      /** The rejected request minus the accepted one and its answer: about the turn in flight. */
      turnTokens: number;
    }
  /** The rejected request minus the most everything compaction could remove could count. */
  | { type: "removable"; requestTokens: number; removableTokens: number }
  /** The rejected request held nothing compaction could remove. */
  | { type: "nothing-removable"; requestTokens?: number }
  /** The retry after a compaction, with only the summary left beside the message, was rejected too. */
  | { type: "retry-rejected"; requestTokens?: number };

export interface MessageTooLargeFacts {
  /** "provider/model" */
  model: string;
  /** The floor the evidence gives for the message and what its turn brought in (see MessageTooLargeError). */
  messageTokens?: number;
  evidence: TooLargeEvidence;
  /** The model's window, as an overflow stated it. */
  contextWindow?: number;
  /** What was done with the conversation before it: nothing, or a compaction undone. */
  conversation: "untouched" | "compaction-undone";
}

/** The error for a message too large on its own, naming the provider's figures and what to do. */
export function messageTooLarge(facts: MessageTooLargeFacts, cause?: unknown): MessageTooLargeError {
  const window =
    facts.contextWindow === undefined
      ? "more than the model accepts"
      : `more than ${facts.model}'s context window of ${facts.contextWindow} tokens`;
  const outcome =
    facts.conversation === "untouched"
      ? "Compacting older turns cannot help, so no summary was requested and the conversation is unchanged."
      : "Compacting older turns did not help, so that compaction was undone and the conversation is as it was.";
  // The advice is the failure hint's (failureHint), shown right after: said once, not twice.
  const message = `your message is too large on its own: ${sizeSentence(facts, window)} ${outcome}`;
  const requestTokens = facts.evidence.requestTokens;
  return new MessageTooLargeError(message, {
    ...optional("messageTokens", facts.messageTokens),
    ...optional("contextWindow", facts.contextWindow),
    ...optional("requestTokens", requestTokens),
    ...optional("cause", cause),
  });
}

function sizeSentence(facts: MessageTooLargeFacts, window: string): string {
  const { evidence } = facts;
  const turn = "it and what its turn brought in (tool calls and results)";
  switch (evidence.type) {
    case "previous-request":
      return (
        `${turn} come to about ${evidence.turnTokens} tokens by the server's count (it counted ` +
        `${evidence.requestTokens} tokens for this request and ${evidence.acceptedTokens} for the previous ` +
        `one it accepted, plus ${evidence.answerTokens} for that answer); with panto's fixed overhead ` +
        `(system prompt and tool definitions) at least ${facts.messageTokens}, ${window} even with the rest ` +
        "of the conversation summarised."
      );
    case "removable":
      return (
        `${turn}, with panto's fixed overhead (system prompt and tool definitions), come to at least ` +
        `${facts.messageTokens} tokens by the server's count (it counted ${evidence.requestTokens} tokens for ` +
        `this request, and the earlier conversation in it can account for at most ${evidence.removableTokens}), ` +
        `${window}.`
      );
    case "nothing-removable":
      return evidence.requestTokens === undefined
        ? `the server rejected a request holding nothing compaction could remove (panto's fixed overhead, ` +
            `any summary, and ${turn}), ${window}.`
        : `the server counted ${evidence.requestTokens} tokens for a request holding nothing compaction could ` +
            `remove (panto's fixed overhead, any summary, and ${turn}), ${window}.`;
    case "retry-rejected":
      return evidence.requestTokens === undefined
        ? `after compaction left only the summary beside it, the server rejected the request again, ${window}.`
        : `after compaction left only the summary beside it, the server still counted ${evidence.requestTokens} ` +
            `tokens for the request, ${window}.`;
  }
}
