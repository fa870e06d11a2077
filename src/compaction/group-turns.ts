import type { Message, Turn } from "../core/index.js";

/**
 * Splits messages into turns: each user message starts a turn that runs up to (not including) the
 * next user message. Messages before the first user message (a session that starts with an
 * assistant message, or a kept suffix that starts oddly) form one leading turn of their own, so no
 * message is ever left out and no turn is ever split.
 */
export function groupTurns(messages: readonly Message[]): Turn[] {
  const turns: Turn[] = [];
  let start = 0;
  for (let index = 1; index <= messages.length; index++) {
    if (index === messages.length || messages[index]?.role === "user") {
      turns.push({ start, end: index, messages: messages.slice(start, index) });
      start = index;
    }
  }
  return turns;
}
