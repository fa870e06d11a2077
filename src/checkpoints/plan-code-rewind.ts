import { type ToolResultBlock, wasNotRun } from "../core/index.js";
import type {
  FileChange,
  FileVersion,
  SessionEntry,
  UncoveredPath,
  UncoveredReason,
} from "../session/index.js";
import { absoluteCheckpointPath } from "./file-version.js";

/** One file a code rewind would put back. */
export interface PlannedFile {
  root: string;
  path: string;
  absolute: string;
  /** How it was just before the point (null: it did not exist): the first recorded state after the point. */
  desired: FileVersion | null;
  /** How panto last recorded it: the latest recorded state. Anything else there now is a conflict. */
  expected: FileVersion | null;
}

/** A path the checkpoints after the point could not cover: left alone, and reported. */
export interface SkippedPath {
  root: string;
  path: string;
  absolute: string;
  reason: UncoveredReason;
}

/** What a code rewind to a point would do, from the checkpoints after it. */
export interface CodePlan {
  files: PlannedFile[];
  skipped: SkippedPath[];
  /**
   * Why the code cannot be rewound at all: a checkpoint that failed, or a call that may have
   * changed files without one. Empty when it can. Never restored in part without saying so.
   */
  blockers: string[];
}

/** Tools whose every run is checkpointed when checkpoints are on. */
const RECORDED_TOOLS = new Set(["bash", "write", "edit"]);
/** Reasons that concern one file (the others name a folder or a whole class of files). */
const FILE_REASONS = new Set<UncoveredReason>(["too-large", "special-file", "content-unavailable"]);

/** What the tool calls after the point did, gathered in one pass. */
interface CallRecord {
  name: string;
  turn: number;
  result?: ToolResultBlock;
  checkpointed: boolean;
}

class PlanBuilder {
  readonly files = new Map<string, PlannedFile>();
  readonly skipped = new Map<string, SkippedPath>();
  readonly blockers: string[] = [];
  readonly calls = new Map<string, CallRecord>();

  addChanges(root: string, changes: readonly FileChange[]): void {
    for (const change of changes) {
      const absolute = absoluteCheckpointPath(root, change.path);
      const known = this.files.get(absolute);
      if (known === undefined)
        this.files.set(absolute, {
          root,
          path: change.path,
          absolute,
          desired: change.before,
          expected: change.after,
        });
      else known.expected = change.after;
    }
  }

  addUncovered(root: string, uncovered: readonly UncoveredPath[]): void {
    for (const item of uncovered) {
      const absolute = absoluteCheckpointPath(root, item.path);
      if (!this.skipped.has(absolute)) this.skipped.set(absolute, { root, ...item, absolute });
    }
  }

  see(entry: SessionEntry, turn: number): void {
    if (entry.type === "checkpoint") {
      if (entry.error !== undefined)
        this.blockers.push(`turn ${turn}: the ${entry.tool} call's checkpoint failed (${entry.error})`);
      this.addChanges(entry.root, entry.files);
      this.addUncovered(entry.root, entry.uncovered);
      const call = this.calls.get(entry.toolCallId);
      if (call !== undefined) call.checkpointed = true;
    } else if (entry.type === "rewind" && entry.root !== undefined) {
      this.addChanges(entry.root, entry.files);
    } else if (entry.type === "message") this.seeMessage(entry.message, turn);
  }

  seeMessage(message: Extract<SessionEntry, { type: "message" }>["message"], turn: number): void {
    for (const block of message.content) {
      if (block.type === "tool-call" && RECORDED_TOOLS.has(block.name))
        this.calls.set(block.id, { name: block.name, turn, checkpointed: false });
      if (block.type === "tool-result") {
        const call = this.calls.get(block.toolCallId);
        if (call !== undefined) call.result = block;
      }
    }
  }

  /** Calls that may have changed files with no checkpoint to say what. */
  unrecordedCalls(): string[] {
    const found: string[] = [];
    for (const [id, call] of this.calls) {
      if (call.checkpointed || (call.result !== undefined && wasNotRun(call.result))) continue;
      const why = call.result === undefined ? "has no result" : "ran without a checkpoint";
      found.push(
        `turn ${call.turn}: the ${call.name} call ${id} ${why} (checkpoints off, or panto stopped during it)`,
      );
    }
    return found;
  }
}

/**
 * Plans a code rewind to just before the entry at `pointIndex` (of the whole file's entries): each
 * file any checkpoint or rewind after the point changed goes back to its first recorded state
 * after the point, where it still is what panto last recorded. A file some checkpoint there could
 * not cover is left out (skipped). `turnOf` gives the turn an entry index belongs to.
 */
export function planCodeRewind(
  entries: readonly SessionEntry[],
  pointIndex: number,
  turnOf: (index: number) => number,
): CodePlan {
  const builder = new PlanBuilder();
  for (let index = pointIndex; index < entries.length; index++)
    builder.see(entries[index] as SessionEntry, turnOf(index));
  const skipped = [...builder.skipped.values()];
  const skippedFiles = new Set(
    skipped.filter((item) => FILE_REASONS.has(item.reason)).map((item) => item.absolute),
  );
  return {
    files: [...builder.files.values()].filter((file) => !skippedFiles.has(file.absolute)),
    skipped,
    blockers: [...builder.blockers, ...builder.unrecordedCalls()],
  };
}
