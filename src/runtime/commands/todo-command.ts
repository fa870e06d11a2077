import { evidenceState, flagTodos, todoProgress } from "../../compaction/index.js";
import { sessionLedger, todosInForce } from "../../todos/index.js";
import type { CommandHandler } from "../run-context.js";

/**
 * `/todo`: the task list in force, each item flagged (or not) by the session's record as it stands
 * now, with how its evidence stands there: the flags are recomputed every time, so one clears once
 * its command passes.
 */
export const runTodoCommand: CommandHandler = async (run) => {
  const items = todosInForce(run.session);
  const ledger = items.length === 0 ? undefined : await sessionLedger(run.session);
  const flagged = flagTodos(items, ledger).map((item) =>
    item.evidence === undefined ? item : { ...item, evidenceState: evidenceState(item.evidence, ledger) },
  );
  return { type: "todo-list", items: flagged, ...todoProgress(items) };
};
