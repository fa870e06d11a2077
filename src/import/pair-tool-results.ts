import type { Message, ToolCallBlock, ToolResultBlock } from "../core/index.js";
import type { MergedItem } from "./merge-messages.js";

/** What pairing changed: calls given a stand-in result, results without their call moved to notes. */
export interface PairingCounts {
  unansweredCalls: number;
  orphanResults: number;
}

const NO_RESULT = "[no result for this call was recorded in the imported session]";

function standIn(call: ToolCallBlock): ToolResultBlock {
  return {
    type: "tool-result",
    toolCallId: call.id,
    toolName: call.name,
    content: [{ type: "text", text: NO_RESULT }],
    isError: true,
  };
}

/**
 * Pairs every tool call with a result right after its answer, as every provider requires: a call
 * the source never answered (the agent was stopped mid-call) gets an error result saying so; a
 * result whose call is not right before it is kept as a note, not sent.
 */
export function pairToolResults(items: readonly MergedItem[]): {
  items: MergedItem[];
  counts: PairingCounts;
} {
  const out: MergedItem[] = [];
  const counts: PairingCounts = { unansweredCalls: 0, orphanResults: 0 };
  let open: ToolCallBlock[] = [];
  let line = 0;
  const close = (): void => {
    if (open.length === 0) return;
    counts.unansweredCalls += open.length;
    out.push({ kind: "message", message: { role: "tool", content: open.map(standIn) }, line, sourceIds: [] });
    open = [];
  };
  for (const item of items) {
    if (item.kind === "note") {
      out.push(item);
      continue;
    }
    if (item.kind === "message" && item.message.role === "tool") {
      out.push(...answer(item, open, counts));
      open = [];
      continue;
    }
    close();
    out.push(item);
    if (item.kind === "message" && item.message.role === "assistant") {
      open = item.message.content.filter((block): block is ToolCallBlock => block.type === "tool-call");
      line = item.line;
    }
  }
  close();
  return { items: out, counts };
}

/** The tool message answering `open`: its matching results, stand-ins for the rest; orphans as notes. */
function answer(
  item: Extract<MergedItem, { kind: "message" }>,
  open: readonly ToolCallBlock[],
  counts: PairingCounts,
): MergedItem[] {
  const message = item.message as Extract<Message, { role: "tool" }>;
  const ids = new Set(open.map((call) => call.id));
  const kept: ToolResultBlock[] = [];
  const notes: MergedItem[] = [];
  for (const result of message.content) {
    if (ids.delete(result.toolCallId)) kept.push(result);
    else {
      counts.orphanResults++;
      notes.push({
        kind: "note",
        line: item.line,
        type: "tool result without its call",
        text: JSON.stringify(result),
        unknown: false,
      });
    }
  }
  const missing = open.filter((call) => ids.has(call.id));
  counts.unansweredCalls += missing.length;
  const content = [...kept, ...missing.map(standIn)];
  return [
    ...(content.length === 0 ? [] : [{ ...item, message: { role: "tool" as const, content } }]),
    ...notes,
  ];
}
