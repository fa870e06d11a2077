import type { ApprovalMode } from "./approval-policy.js";

/** The heading of the system prompt's one section that says which mode is on (its last section). */
export const MODE_SECTION_HEADING = "# Mode";

const WORKING_SECTION = `${MODE_SECTION_HEADING}

Plan mode is off: make the changes the task needs with the tools (the user may be asked to approve some calls).`;

const PLAN_SECTION = `${MODE_SECTION_HEADING}

Plan mode is on: the user wants a plan before any change. Read, search and run commands that only look (they run in a read-only sandbox); write and edit are refused, and so is any command that would change the project. Investigate what the task needs, keep the plan in the task list with the todo tool (one item per step, with the command or file that will show it is done as its evidence), and end your turn with the plan: what you will change, in which files, in which order, and how you will check it. Do not start the work: the user leaves plan mode to have it carried out.`;

/**
 * The system prompt's mode section, its last: none in a run that has never been in plan mode (its
 * prompt is what it always was), then whether plan mode is on. It depends only on that, so
 * switching between the other modes (ask, accept edits, allow all) changes no byte of the prompt,
 * and switching plan mode changes this section and nothing else.
 */
export function modePromptSection(mode: ApprovalMode, planSeen: boolean): string {
  if (mode === "plan") return PLAN_SECTION;
  return planSeen ? WORKING_SECTION : "";
}
