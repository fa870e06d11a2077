import type { EntryBase } from "./entry-base.js";

/** A file's git mode: a regular file, an executable one, or a symbolic link (its content is the target). */
export type FileMode = "100644" | "100755" | "120000";

/** A file's state as a checkpoint recorded it; its content is kept in the checkpoint store. */
export interface FileVersion {
  /** The git blob id (SHA-1 of "blob <size>\0" and the content): where the content is found. */
  oid: string;
  mode: FileMode;
  /** Bytes of content. */
  size: number;
  /**
   * The permission bits of a regular file (0o600 is 384), when panto saw the file itself: a rewind
   * puts them back, so a private file does not come back readable by all. Absent for links and for
   * states known only from the project's repository (then the executable bit of `mode` is all).
   */
  perm?: number;
}

/** One path a tool call (or a rewind) changed: its state before and after; null means absent. */
export interface FileChange {
  /** Relative to the entry's root with "/" separators; absolute when outside it. */
  path: string;
  before: FileVersion | null;
  after: FileVersion | null;
}

/**
 * Why a path was left out of a checkpoint: ignored by the project's ignore rules, over the size
 * cap, inside a nested repository, not a regular file or link, its earlier content no longer
 * available, or outside the workspace.
 */
export type UncoveredReason =
  | "ignored"
  | "too-large"
  | "nested-repository"
  | "special-file"
  | "content-unavailable"
  | "outside-workspace";

/** A path a checkpoint could not cover: a rewind leaves it alone and says so. */
export interface UncoveredPath {
  /** Relative to the entry's root; a directory ends with "/". */
  path: string;
  reason: UncoveredReason;
}

/**
 * What one tool call changed in the workspace, recorded by panto around the call (outside any
 * sandbox): for `write` and `edit` the file they name, read before and after; for `bash` and other
 * tools that may change files, a snapshot of the workspace's tracked and untracked, non-ignored
 * files before and after. Written for every such call that ran, even when nothing changed, so a
 * call without one is known to be unrecorded.
 */
export interface CheckpointEntry extends EntryBase {
  type: "checkpoint";
  toolCallId: string;
  /** The tool's name. */
  tool: string;
  /** The workspace the paths are relative to (absolute): the git work tree, else the project folder. */
  root: string;
  /** "file": the one file the call names; "workspace": the whole workspace, snapshot before and after. */
  scope: "file" | "workspace";
  files: FileChange[];
  /** What it could not cover and why. */
  uncovered: UncoveredPath[];
  /** Set when no checkpoint could be taken (what the call changed is unknown), with why. */
  error?: string;
}

/** What a rewind did with one file. */
export type RewindOutcome =
  /** Put back to its content before the point (or recreated, or removed when it did not exist then). */
  | "restored"
  /** Already as it was before the point: nothing to do. */
  | "unchanged"
  /** Changed since panto last recorded it (by the user or another program): left alone. */
  | "conflict"
  /** Changed since panto last recorded it, and overwritten because the user confirmed. */
  | "overwritten"
  /** Not covered by the checkpoints (see the reason): left alone. */
  | "skipped"
  /** Restoring it failed (see the reason); the file is as it was found. */
  | "failed";

export interface RewindFileOutcome {
  path: string;
  outcome: RewindOutcome;
  /** For skipped and failed files, and conflicts: why. */
  reason?: string;
}

/** Which parts a rewind takes back. */
export type RewindScope = "both" | "code" | "conversation";

/**
 * A rewind: the conversation, the code or both go back to how they were just before the entry
 * `firstEntryId` was written (the user message that began turn `turn`, or an earlier rewind entry,
 * which this one then undoes). For the conversation, replay drops every entry from `firstEntryId`
 * through this one, as it drops a failed turn; they stay in the file. For the code, `files` records
 * what the rewind changed (as a checkpoint does), so a later rewind to this entry undoes it.
 */
export interface RewindEntry extends EntryBase {
  type: "rewind";
  firstEntryId: string;
  scope: RewindScope;
  /** The turn whose start is the point (1-based, as `turnNumbers` counts), or for an undo the next turn's. */
  turn: number;
  /**
   * The user turns this entry takes out of the context (those replay kept before it), by number;
   * empty for a code-only rewind. Readers that search the whole file show them marked as rewound.
   */
  droppedTurns: number[];
  /** The workspace `files` are relative to; absent when no file was changed. */
  root?: string;
  files: FileChange[];
  outcomes: RewindFileOutcome[];
}
