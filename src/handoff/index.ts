export {
  composeHandoff,
  HANDOFF_LEDGER_HEADING,
  HANDOFF_SECTIONS,
  type HandoffSource,
  handoffContext,
  handoffLedger,
  handoffRequest,
  handoffTemplate,
} from "./handoff-draft.js";
export { HANDOFF_PROMPT_PATH } from "./handoff-prompt-path.js";
