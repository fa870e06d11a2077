import type { PlanEntry, SessionUpdate } from "@agentclientprotocol/sdk";
import type { FlaggedTodoItem } from "../../core/index.js";

/** The key of panto's own facts about the task list, on the plan and on each entry. */
const META_KEY = "panto/todo";

/**
 * The task list as the protocol's `plan` session update, which an editor shows in its plan view and
 * replaces whole with each one. Every item but a cancelled one is an entry with its content and
 * status (panto's statuses but `cancelled` are the protocol's own); an entry's `_meta["panto/todo"]`
 * holds its evidence and flag when it has them. Cancelled items, which the protocol has no status
 * for, are left out of the entries and listed in the plan's `_meta["panto/todo"].cancelled`; the
 * flagged ones (completed, but the session's record contradicts their evidence) in `.flagged`; and
 * `completed`/`total` are the figures the terminal's status line shows. An empty list is a plan
 * with no entries, which clears the editor's view.
 */
export function planUpdate(items: readonly FlaggedTodoItem[]): SessionUpdate {
  const entries: PlanEntry[] = [];
  const cancelled: Array<{ content: string; evidence?: string }> = [];
  const flagged: Array<{ content: string; flag: string }> = [];
  for (const item of items) {
    if (item.flag !== undefined) flagged.push({ content: item.content, flag: item.flag });
    if (item.status === "cancelled") {
      cancelled.push(
        item.evidence === undefined
          ? { content: item.content }
          : { content: item.content, evidence: item.evidence },
      );
      continue;
    }
    const facts = {
      ...(item.evidence === undefined ? {} : { evidence: item.evidence }),
      ...(item.flag === undefined ? {} : { flag: item.flag }),
    };
    entries.push({
      content: item.content,
      // The todo tool takes no priority, and the list's order is the model's order of work, not of
      // importance: every entry is "medium" rather than a ranking panto would be making up.
      priority: "medium",
      status: item.status,
      ...(Object.keys(facts).length === 0 ? {} : { _meta: { [META_KEY]: facts } }),
    });
  }
  const completed = entries.filter((entry) => entry.status === "completed").length;
  return {
    sessionUpdate: "plan",
    entries,
    _meta: { [META_KEY]: { cancelled, flagged, completed, total: entries.length } },
  };
}
