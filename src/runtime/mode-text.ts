import { APPROVAL_MODES, type ApprovalMode } from "./approval-policy.js";

/** A mode's name as the user reads it ("Accept edits"), lower case after the first word's capital. */
export function modeName(mode: ApprovalMode): string {
  return APPROVAL_MODES.find((entry) => entry.id === mode)?.name ?? mode;
}

/** The one line a front-end shows when the mode changed. */
export function modeChangedText(mode: ApprovalMode, previous: ApprovalMode): string {
  if (mode === "plan")
    return `plan mode on: read and search only, write and edit refused (/plan off: back to ${modeName(previous).toLowerCase()})`;
  if (previous === "plan") return `plan mode off: back to ${modeName(mode).toLowerCase()}`;
  return `mode: ${modeName(mode).toLowerCase()}`;
}
