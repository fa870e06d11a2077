import { todoProgress } from "../../compaction/index.js";
import { todosInForce } from "../../todos/index.js";
import { info, usageError } from "../command-outcome.js";
import { modeName } from "../mode-text.js";
import type { CommandHandler, RunContext } from "../run-context.js";

/**
 * `/plan` toggles plan mode, `/plan on` enters it, `/plan off` leaves it for the mode that was in
 * force before it, with the task list the plan left in force. The run reports each change as a
 * `mode-changed` event (JSON `mode_changed`, ACP `current_mode_update`).
 */
export const runPlanCommand: CommandHandler = async (run, args) => {
  const word = args.trim().toLowerCase();
  if (word !== "" && word !== "on" && word !== "off")
    return usageError(`/plan takes "on", "off" or nothing (to toggle), not "${args.trim()}"`);
  const on = run.approvals.mode === "plan";
  const wanted = word === "" ? !on : word === "on";
  if (wanted === on) return info("plan", on ? "Plan mode is already on." : "Plan mode is already off.");
  // The mode-changed event says which mode is on now (each front-end shows it); the outcome adds the rest.
  if (wanted) {
    run.approvals.setMode("plan");
    return info(
      "plan",
      `The model ends its turn with a plan and keeps it in the task list. /plan off returns to ${modeName(run.approvals.workingMode).toLowerCase()}.`,
    );
  }
  run.approvals.leavePlan();
  return info("plan", listInForce(run));
};

/** What the plan left: the task list now in force, as the model sees it. */
function listInForce(run: RunContext): string {
  const items = todosInForce(run.session);
  if (items.length === 0) return "No task list is in force (the plan made none).";
  const { completed, total } = todoProgress(items);
  return `The plan's task list is in force: ${completed}/${total} done (/todo shows it).`;
}
