import { CONVERSATION_KEYS, collectText } from "./context-echo-responder.js";
import type { FakeReply, RecordedRequest } from "./fake-provider-types.js";

/** How `panto fidelity`'s probe with recall invites the tool (src/fidelity/probe-question.ts). */
export const RECALL_INVITATION = "You may call the recall tool";
/** The compaction block's pointer (src/session/compose-compaction-summary.ts), and a paged read's tail. */
const POINTER = /This summary stands for turns? 1(?: to (\d+))? of this session/;
const NEXT_PAGE = /\[More follows: call recall with (\{[^}]*\}) for the next page\.\]/;

/**
 * A fake reader that uses `recall` the way a careful model would, then answers with perfect recall:
 * asked a question that invites the recall tool, it reads back every turn the compaction block says
 * it stands for (`{"turn": 1, "to": N}`), page after page, and then answers with every piece of text
 * its conversation holds (the recall results included), the question left out, as
 * {@link contextEchoResponder} does. Asked anything else, it answers like contextEchoResponder.
 */
export function recallReaderResponder(): (request: RecordedRequest) => FakeReply {
  let calls = 0;
  return (request) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const key = CONVERSATION_KEYS.find((candidate) => Array.isArray(body[candidate]));
    const conversation = key === undefined ? [] : (body[key] as unknown[]);
    const asked = conversation.findLastIndex((item) => JSON.stringify(item).includes(RECALL_INVITATION));
    const last = JSON.stringify(conversation.at(-1) ?? null);
    if (asked !== -1) {
      const next = NEXT_PAGE.exec(last.replaceAll('\\"', '"'));
      if (next?.[1] !== undefined) return recallCall(++calls, JSON.parse(next[1]) as Record<string, unknown>);
      const pointer = POINTER.exec(JSON.stringify(conversation.slice(0, asked)));
      if (asked === conversation.length - 1 && pointer !== null)
        return recallCall(++calls, { turn: 1, to: Number(pointer[1] ?? 1) });
    }
    const texts: string[] = [];
    conversation.forEach((item, index) => {
      if (index !== (asked === -1 ? conversation.length - 1 : asked)) collectText(item, texts);
    });
    return { type: "text", text: texts.join("\n") };
  };
}

function recallCall(number: number, args: Record<string, unknown>): FakeReply {
  return { type: "tool-calls", calls: [{ id: `recall_${number}`, name: "recall", arguments: args }] };
}
