export * from "./base-compaction-prompt-path.js";
export * from "./build-compaction-request.js";
export * from "./estimate-context-tokens.js";
export * from "./estimate-tokens.js";
export { ERROR_EXCERPT_CHARS, extractFacts, type Fact } from "./extract-facts.js";
export * from "./group-turns.js";
export { MAX_CARRIED_SKILLS, SKILL_TOOL, skillsLoadedIn, withLoadedSkills } from "./loaded-skills.js";
export { PINNED_NOTES_PROMPT_HEADING, withPinnedNotes } from "./pinned-notes-prompt.js";
export * from "./plan-retention.js";
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
  normaliseForMatch,
  type RestoreLimits,
  withRestoredFacts,
} from "./restore-facts.js";
export * from "./run-compaction.js";
export * from "./serialize-transcript.js";
export * from "./size-turns.js";
export * from "./summarise-with-fallback.js";
export * from "./token-upper-bound.js";
