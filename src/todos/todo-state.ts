import { extractLedger, flagTodos, groupTurns, latestTodoList, numberTurns } from "../compaction/index.js";
import type { CompactionLedger, FlaggedTodoItem, TodoItem } from "../core/index.js";
import { effectiveNumbering, type Session } from "../session/index.js";

/** No cap on the ledger a task list is checked against: an old run may be the evidence. */
const WHOLE_LEDGER = { files: Number.MAX_SAFE_INTEGER, commands: Number.MAX_SAFE_INTEGER, changesPerFile: 1 };

/**
 * The task list in force: the one the latest accepted `todo` call of the effective context set,
 * else the one the compaction in effect carries, else none. Derived from the session's entries,
 * so resume, fork, rewind and `/uncompact` give the list as it stood at that point.
 */
export function todosInForce(session: Session): TodoItem[] {
  const latest = latestTodoList(session.effectiveContext().messages);
  if (latest !== undefined) return latest;
  return (session.activeCompaction()?.todos ?? []).map(({ flag: _flag, ...item }) => item);
}

/**
 * The session's ledger now: the compaction in effect's (which carries those before it) with every
 * file changed and command run in the context on top, outputs read whole (a cleared result too).
 */
export async function sessionLedger(session: Session): Promise<CompactionLedger | undefined> {
  const turns = groupTurns(session.unclearedContext().messages);
  const numbering = await effectiveNumbering(session);
  const numbers = numbering === undefined ? [] : numberTurns(turns, numbering.numbers);
  return extractLedger(turns, numbers, session.activeCompaction()?.ledger, WHOLE_LEDGER);
}

/** The task list in force with the flags the session's ledger gives it now. */
export async function flaggedTodos(session: Session): Promise<FlaggedTodoItem[]> {
  const items = todosInForce(session);
  if (items.length === 0) return [];
  return flagTodos(items, await sessionLedger(session));
}
