import type { AssistantMessage, Message } from "../core/index.js";
import type { ImportItem } from "./import-types.js";

/** A message item whose source messages of one role in a row are one message now. */
export type MergedItem =
  | Exclude<ImportItem, { kind: "message" }>
  | { kind: "message"; message: Message; line: number; sourceIds: string[] };

function mergeTwo(into: Message, next: Message): Message {
  if (into.role === "assistant" && next.role === "assistant") return mergeAnswers(into, next);
  if (into.role === "user" && next.role === "user")
    return { role: "user", content: [...into.content, ...next.content] };
  if (into.role === "tool" && next.role === "tool")
    return { role: "tool", content: [...into.content, ...next.content] };
  return into;
}

/**
 * Two answer parts in a row are one answer: Claude Code writes each content block of a response on
 * a line of its own, and Codex each item (reasoning, text, calls) of one.
 */
function mergeAnswers(first: AssistantMessage, second: AssistantMessage): AssistantMessage {
  const content = [...first.content, ...second.content];
  const usage = second.usage ?? first.usage;
  const calls = content.some((block) => block.type === "tool-call");
  return {
    ...second,
    content,
    stopReason: calls && second.stopReason === "stop" ? "tool-use" : second.stopReason,
    ...(usage === undefined ? {} : { usage }),
  };
}

/**
 * Merges messages of one role in a row (notes between them do not part them; they follow the
 * merged message). Consecutive user messages become one turn's prompt, as the model saw them.
 */
export function mergeMessages(items: readonly ImportItem[]): MergedItem[] {
  const out: MergedItem[] = [];
  let pending: Extract<MergedItem, { kind: "message" }> | undefined;
  let held: MergedItem[] = [];
  const flush = (): void => {
    if (pending !== undefined) out.push(pending);
    out.push(...held);
    pending = undefined;
    held = [];
  };
  for (const item of items) {
    if (item.kind === "note") {
      if (pending === undefined) out.push(item);
      else held.push(item);
      continue;
    }
    if (item.kind === "compaction") {
      flush();
      out.push(item);
      continue;
    }
    const ids = item.sourceId === undefined ? [] : [item.sourceId];
    if (pending !== undefined && pending.message.role === item.message.role) {
      pending = {
        ...pending,
        message: mergeTwo(pending.message, item.message),
        sourceIds: [...pending.sourceIds, ...ids],
      };
      continue;
    }
    flush();
    pending = { kind: "message", message: structuredClone(item.message), line: item.line, sourceIds: ids };
  }
  flush();
  return out;
}
