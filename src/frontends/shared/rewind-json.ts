import type { PreparedRewind, RewindReport } from "../../checkpoints/index.js";
import { blockedMessage, doneActions, type FileAction, plannedActions } from "../../checkpoints/index.js";
import type { CheckpointEntry, FileChange, ForkedSession } from "../../session/index.js";

/** One `--json` line; snake_case fields, stable for scripts. */
type JsonObject = { type: string } & Record<string, unknown>;

function fileJson(action: FileAction): Record<string, unknown> {
  return {
    path: action.path,
    outcome: action.outcome,
    ...(action.change === undefined ? {} : { change: action.change }),
    ...(action.reason === undefined ? {} : { reason: action.reason }),
  };
}

/**
 * The `rewind` event: what a rewind did (or, with `dry_run`, would do) to the conversation and to
 * each file. `blocked` says why the files cannot be rewound (then nothing was changed).
 */
export function rewindJson(prepared: PreparedRewind, report?: RewindReport): JsonObject {
  const blockers = prepared.code?.plan.blockers ?? [];
  const actions = report === undefined ? plannedActions(prepared) : doneActions(report);
  return {
    type: "rewind",
    dry_run: report === undefined,
    session: prepared.sessionPath,
    turn: prepared.turn,
    undo: prepared.undo,
    scope: prepared.scope,
    dropped_turns: prepared.droppedTurns,
    restored_turns: prepared.restoredTurns,
    files: blockers.length > 0 ? [] : actions.map(fileJson),
    blocked: blockers.length > 0 ? blockedMessage(blockers) : null,
  };
}

function changeKind(file: FileChange): "created" | "deleted" | "modified" {
  if (file.before === null) return "created";
  return file.after === null ? "deleted" : "modified";
}

/** The `checkpoint` event: what one tool call changed, what could not be covered, or why none was taken. */
export function checkpointJson(entry: CheckpointEntry): JsonObject {
  return {
    type: "checkpoint",
    tool_call_id: entry.toolCallId,
    tool: entry.tool,
    scope: entry.scope,
    files: entry.files.map((file) => ({ path: file.path, change: changeKind(file) })),
    uncovered: entry.uncovered,
    ...(entry.error === undefined ? {} : { error: `checkpoints unavailable: ${entry.error}` }),
  };
}

/** The `fork` event: the new session and where in its parent it starts. */
export function forkJson(fork: ForkedSession): JsonObject {
  return {
    type: "fork",
    session_id: fork.header.id,
    path: fork.path,
    parent_id: fork.header.parent?.id ?? null,
    parent_path: fork.header.parent?.path ?? null,
    turn: fork.turn,
  };
}
