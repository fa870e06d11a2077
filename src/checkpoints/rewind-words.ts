import type { UncoveredReason } from "../session/index.js";

// The words of a rewind's report, apart from the rewind itself: describing a rewind (every run's
// outcome text, the print mode's checkpoint warning) must not load the checkpoint store.

/** Why a path was not covered, in words for the report. */
export const UNCOVERED_WORDS: Record<UncoveredReason, string> = {
  ignored: "ignored by the project's ignore rules, not checkpointed",
  "too-large": "over the checkpoint size cap, not checkpointed",
  "nested-repository": "a nested repository, not checkpointed",
  "special-file": "not a regular file or link, not checkpointed",
  "content-unavailable": "its earlier content was not available when checkpointed",
  "outside-workspace": "outside the workspace, not checkpointed",
};

/** The message for a code rewind that cannot be made: the reasons, and what can be done instead. */
export function blockedMessage(blockers: readonly string[]): string {
  return `checkpoints unavailable: the files cannot be rewound (${blockers.join("; ")}); the conversation alone can be (--conversation, or "conversation only" in /rewind)`;
}
