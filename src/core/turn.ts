import type { Message } from "./messages.js";

/** Where a turn's size figure came from. */
export type SizeSource = "usage" | "estimate";

/**
 * A turn: a user message and every assistant message, tool call and tool result up to (not
 * including) the next user message. The unit of retention; never split.
 */
export interface Turn {
  /** Index of the turn's first message in the message list it was grouped from. */
  start: number;
  /** Index one past the turn's last message. */
  end: number;
  messages: Message[];
}

export interface SizedTurn extends Turn {
  tokens: number;
  source: SizeSource;
}
