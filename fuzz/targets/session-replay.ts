import type { Message, ToolResultBlock } from "../../src/core/index.js";
import {
  parseSessionLine,
  replayEntries,
  type SessionEntry,
  survivingEntries,
} from "../../src/session/index.js";
import { type FuzzTarget, invariant } from "../engine/fuzz-target.js";
import { checkMessage, checkToolPairing } from "../support/check-messages.js";
import { SESSION_WORDS } from "../support/session-words.js";

/**
 * The session line parser, replay and tool-pairing repair on a whole file's lines (hand-edited,
 * cut off, written by another version). Invariants: parsing never throws and every line is an
 * entry, an unknown type or an invalid line with a reason; replay never throws; the context holds
 * only well-formed messages with every tool call answered once (spec rule 2); every user and
 * assistant message in it is one the file holds, unchanged; and each result replay leaves out or
 * makes up is named in a problem.
 */
export const target: FuzzTarget = {
  description: "session lines -> parseSessionLine -> replayEntries (with repairToolPairing)",
  dictionary: SESSION_WORDS,
  maxLength: 16_384,
  run(input) {
    const entries: SessionEntry[] = [];
    for (const line of input.toString("utf8").split("\n")) {
      if (line === "") continue;
      const parsed = parseSessionLine(line);
      if (parsed.kind === "entry") entries.push(parsed.entry);
      else if (parsed.kind === "invalid") invariant(parsed.reason !== "", "invalid line without a reason");
      else invariant(typeof parsed.type === "string", "unknown entry without its type");
    }
    const { context, problems } = replayEntries(entries);
    context.messages.forEach((message, index) => {
      checkMessage(message, `context message ${index}`);
    });
    checkToolPairing(context.messages);
    const written = new Set<Message>(
      entries.flatMap((entry) => (entry.type === "message" ? [entry.message] : [])),
    );
    for (const message of context.messages) {
      if (message.role !== "tool")
        invariant(written.has(message), `replay made up a ${message.role} message`);
    }
    const surviving = survivingEntries(entries).messages.map((entry) => entry.message);
    checkResultsAccounted(surviving, context.messages, problems);
    invariant(
      context.compaction === undefined || typeof context.compaction.summary === "string",
      "summary not text",
    );
  },
};

/**
 * Every tool result of the surviving messages that the context lacks (an orphan or a repeat) and
 * every result it gained (a stand-in for a missing one) is named in a problem.
 */
function checkResultsAccounted(
  surviving: readonly Message[],
  context: readonly Message[],
  problems: readonly string[],
): void {
  const results = (messages: readonly Message[]): ToolResultBlock[] =>
    messages.flatMap((message) => (message.role === "tool" ? message.content : []));
  const before = new Set(results(surviving));
  const after = new Set(results(context));
  const named = problems.join("\n");
  for (const block of before)
    if (!after.has(block))
      invariant(
        named.includes(`call ${block.toolCallId} `),
        `dropped result for ${block.toolCallId} not reported`,
      );
  for (const block of after)
    if (!before.has(block))
      invariant(
        named.includes(`call ${block.toolCallId} `),
        `stand-in result for ${block.toolCallId} not reported`,
      );
}
