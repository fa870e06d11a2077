import { backgroundTasksText } from "../background-task-text.js";
import { info, usageError } from "../command-outcome.js";
import type { CommandHandler } from "../run-context.js";

/**
 * `/tasks`: the run's background commands, one a line; `/tasks kill ID` stops one (its whole
 * process tree) as the model's kill_task would. The model is told of a kill at its next request.
 */
export const runTasksCommand: CommandHandler = async (run, args) => {
  const words = args
    .trim()
    .split(/\s+/)
    .filter((word) => word !== "");
  if (words.length === 0) return info("tasks", backgroundTasksText(run.tasks.list()));
  const [verb, id] = words;
  if (verb !== "kill" || id === undefined || words.length > 2)
    return usageError(`/tasks takes nothing or "kill ID" (got "${args.trim()}")`);
  const task = run.tasks.list().find((candidate) => candidate.id === id);
  if (task === undefined) return usageError(`/tasks kill: no background task ${id} in this session`);
  if (task.ending === undefined) await run.tasks.stopForUser(id);
  return info("tasks", backgroundTasksText(run.tasks.list()));
};
