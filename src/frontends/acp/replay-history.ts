import { readFile } from "node:fs/promises";
import type { ContentBlock, SessionUpdate } from "@agentclientprotocol/sdk";
import type { ImageBlock, Message, TextBlock, ToolCallBlock } from "../../core/index.js";
import { optional, triggerName } from "../../core/index.js";
import { formatClearingLine } from "../../runtime/format-text.js";
import {
  type ClearingEntry,
  composeCompactionSummary,
  parseSessionLine,
  type SessionEntry,
  type UnclearEntry,
} from "../../session/index.js";
import { toolCallView, toolResultView } from "./tool-call-view.js";
import { noticeText } from "./update-sender.js";

/** How a replay reaches the session: its cwd, whether compactions are entities, and where updates go. */
export interface ReplayTarget {
  cwd: string;
  compactionEntities: boolean;
  send: (update: SessionUpdate) => void;
}

/**
 * `session/load`: the whole conversation of a session file as updates, in file order, before the
 * response. User messages as `user_message_chunk`s, answers as message and thought chunks (one
 * `messageId` each: the entry id), tool calls announced then completed with their results, and
 * every compaction at its place (a `compaction_update` with its summary, or agent text without
 * `session.compaction`). The kept copies a compaction wrote repeat earlier messages and are left
 * out; so are lines panto cannot read (the run warns about those when it opens the file).
 */
export async function replayHistory(path: string, target: ReplayTarget): Promise<void> {
  const text = await readFile(path, "utf8").catch(() => "");
  const calls = new Map<string, ToolCallBlock>();
  for (const line of text.split("\n").slice(1)) {
    if (line.trim() === "") continue;
    const parsed = parseSessionLine(line);
    if (parsed.kind === "entry") replayEntry(parsed.entry, target, calls);
  }
  // A call the file never answers (a crash mid-call, a file cut short) would show as running for
  // ever: each ends as failed, saying so.
  for (const id of calls.keys()) target.send(unanswered(id));
}

/**
 * A clearing (or its undo) at its place in the history: the outputs shown above stay whole here, as
 * the file keeps them; the notice says which ones the context held as stubs from then on.
 */
function clearingNotice(entry: ClearingEntry | UnclearEntry): SessionUpdate {
  const ids = entry.type === "clearing" ? entry.results.map((result) => result.toolCallId) : [];
  const text =
    entry.type === "clearing"
      ? formatClearingLine({ ...entry, toolCallIds: ids })
      : `took back clearing ${entry.clearingId}: its tool outputs were whole in the context again`;
  const meta = {
    "panto/clearing": {
      event: entry.type === "clearing" ? "cleared" : "undone",
      clearingId: entry.type === "clearing" ? entry.id : entry.clearingId,
      ...(entry.type === "clearing" ? { toolResults: ids.length, ids } : {}),
      tokensBefore: entry.tokensBefore,
      tokensAfter: entry.tokensAfter,
      ...(entry.type === "clearing" && typeof entry.reason === "string"
        ? { reason: entry.reason.replace("-", "_") }
        : {}),
    },
  };
  return noticeText(entry.id, text, meta);
}

/** The update that ends a call the session file holds no result for. */
function unanswered(toolCallId: string): SessionUpdate {
  return {
    sessionUpdate: "tool_call_update",
    toolCallId,
    status: "failed",
    content: [{ type: "content", content: { type: "text", text: "No result was recorded for this call." } }],
  };
}

function replayEntry(entry: SessionEntry, target: ReplayTarget, calls: Map<string, ToolCallBlock>): void {
  if (entry.type === "message") {
    if (entry.keptBy === undefined) replayMessage(entry.id, entry.message, target, calls);
    return;
  }
  if (entry.type === "clearing" || entry.type === "unclear") {
    target.send(clearingNotice(entry));
    return;
  }
  if (entry.type !== "compaction") return;
  const summary = composeCompactionSummary({
    summary: entry.summary,
    ...optional("restored", entry.restored),
  });
  const meta = {
    "panto/compaction": { entryId: entry.id, trigger: triggerName(entry.trigger), model: entry.model },
  };
  if (target.compactionEntities)
    target.send({
      sessionUpdate: "compaction_update",
      compactionId: entry.id,
      status: "completed",
      summary: [{ type: "text", text: summary }],
      _meta: meta,
    });
  else
    target.send(
      noticeText(entry.id, `${compactedLine(entry)}\n\nSummary now in effect:\n\n${summary}`, meta),
    );
}

function replayMessage(
  id: string,
  message: Message,
  target: ReplayTarget,
  calls: Map<string, ToolCallBlock>,
): void {
  const { send, cwd } = target;
  if (message.role === "user") {
    for (const content of message.content.map(contentBlock))
      send({ sessionUpdate: "user_message_chunk", messageId: id, content });
    return;
  }
  if (message.role === "tool") {
    for (const result of message.content) {
      const call = calls.get(result.toolCallId);
      if (call === undefined) continue;
      calls.delete(result.toolCallId);
      send({
        sessionUpdate: "tool_call_update",
        toolCallId: result.toolCallId,
        ...toolResultView(result, undefined),
      });
    }
    return;
  }
  for (const block of message.content) {
    if (block.type === "text" && block.text !== "")
      send({
        sessionUpdate: "agent_message_chunk",
        messageId: id,
        content: { type: "text", text: block.text },
      });
    else if (block.type === "thinking" && block.text !== "")
      send({
        sessionUpdate: "agent_thought_chunk",
        messageId: `${id}-thought`,
        content: { type: "text", text: block.text },
      });
    else if (block.type === "tool-call") {
      // An id already running (a file that repeats one) ends the earlier call first.
      if (calls.has(block.id)) send(unanswered(block.id));
      calls.set(block.id, block);
      const view = toolCallView(block, cwd);
      send({
        sessionUpdate: "tool_call",
        toolCallId: block.id,
        title: view.title,
        kind: view.kind,
        status: "pending",
        locations: view.locations,
        rawInput: block.arguments,
      });
    }
  }
}

function contentBlock(block: TextBlock | ImageBlock): ContentBlock {
  return block.type === "text"
    ? { type: "text", text: block.text }
    : { type: "image", data: block.data, mimeType: block.mediaType };
}

function compactedLine(entry: Extract<SessionEntry, { type: "compaction" }>): string {
  const turns = entry.turnsSummarised === 1 ? "1 turn" : `${entry.turnsSummarised} turns`;
  return `Compacted ${turns} into a summary (${triggerName(entry.trigger)}, model ${entry.model}).`;
}
