export {
  composeHandoff,
  HANDOFF_LEDGER_HEADING,
  HANDOFF_SECTIONS,
  HANDOFF_TODO_HEADING,
  type HandoffSource,
  handoffContext,
  handoffLedger,
  handoffRequest,
  handoffTemplate,
} from "./handoff-draft.js";
export { HANDOFF_PROMPT_PATH } from "./handoff-prompt-path.js";
