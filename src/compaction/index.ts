export * from "./base-compaction-prompt-path.js";
export * from "./build-compaction-request.js";
export { checkClaims, MAX_UNVERIFIED } from "./check-claims.js";
export { clearingStub } from "./clearing-stub.js";
export * from "./estimate-context-tokens.js";
export * from "./estimate-tokens.js";
export { ERROR_EXCERPT_CHARS, extractFacts, type Fact } from "./extract-facts.js";
export {
  DEFAULT_LEDGER_LIMITS,
  deletedPaths,
  errorLine,
  extractLedger,
  type LedgerLimits,
} from "./extract-ledger.js";
export * from "./group-turns.js";
export { MAX_CARRIED_SKILLS, SKILL_TOOL, skillsLoadedIn, withLoadedSkills } from "./loaded-skills.js";
export { normaliseForMatch } from "./normalise-for-match.js";
export { compactionTurns, numberTurns } from "./number-turns.js";
export { PINNED_NOTES_PROMPT_HEADING, withPinnedNotes } from "./pinned-notes-prompt.js";
export {
  type ClearingCost,
  type ClearingInput,
  type ClearingPlan,
  type ClearingSettings,
  clearingDue,
  DEFAULT_CLEARING,
  DEFAULT_TRIGGER_TOKENS,
  type PlannedClear,
  planClearing,
} from "./plan-clearing.js";
export * from "./plan-retention.js";
export {
  type PreparedSummary,
  type PrepareOutcome,
  type PrepareSummaryInput,
  preparedPlan,
  prepareSummary,
} from "./prepare-summary.js";
export {
  type CompactionPreview,
  type PreviewCompactionInput,
  type PreviewTurn,
  previewCompaction,
} from "./preview-compaction.js";
export { defuseEnvelopeTags, quoteTranscriptText, unquoteTranscriptText } from "./quote-transcript-text.js";
export * from "./resolve-compaction-prompt.js";
export {
  DEFAULT_RESTORE_LIMITS,
  findMissingFacts,
  type RestoreLimits,
  type RestoreOptions,
  withRestoredFacts,
} from "./restore-facts.js";
export * from "./run-compaction.js";
export * from "./serialize-transcript.js";
export * from "./size-turns.js";
export * from "./summarise-with-fallback.js";
export {
  CHUNK_MARGIN,
  estimateRequest,
  RATIO_SPREAD,
  type SummariserFigures,
} from "./summary-fit.js";
export {
  evidenceState,
  flagTodos,
  latestTodoList,
  TODO_TOOL,
  todoFlag,
  todoItemsOf,
  todoProgress,
  tooManyInProgress,
} from "./todo-list.js";
export { TODO_LIST_PROMPT_HEADING, withTodoListNote } from "./todo-list-prompt.js";
export * from "./token-upper-bound.js";
