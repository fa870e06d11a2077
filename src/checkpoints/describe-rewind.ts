import type { CheckpointEntry, FileVersion, RewindOutcome } from "../session/index.js";
import type { RewindReport } from "./apply-rewind.js";
import type { PreparedRewind } from "./prepare-rewind.js";
import type { FileVerdict } from "./restore-files.js";
import type { RewindPoint } from "./rewind-points.js";
import { blockedMessage, UNCOVERED_WORDS } from "./rewind-words.js";

/** What a rewind does (or would do) to one file: its outcome, and the change a restore makes. */
export interface FileAction {
  path: string;
  outcome: RewindOutcome;
  /** "create": it is not there now; "delete": it was not there before the point; else "modify". */
  change?: "create" | "delete" | "modify";
  reason?: string;
}

/** "2-5", "2, 4-5", "none". */
export function turnRanges(turns: readonly number[]): string {
  if (turns.length === 0) return "none";
  const parts: string[] = [];
  let start = turns[0] as number;
  let previous = start;
  for (const turn of [...turns.slice(1), Number.NaN]) {
    if (turn === previous + 1) {
      previous = turn;
      continue;
    }
    parts.push(start === previous ? `${start}` : `${start}-${previous}`);
    start = turn;
    previous = turn;
  }
  return parts.join(", ");
}

function changeOf(
  found: FileVersion | null | undefined,
  desired: FileVersion | null,
): NonNullable<FileAction["change"]> {
  if (desired === null) return "delete";
  return found === null ? "create" : "modify";
}

function verdictAction(verdict: FileVerdict): FileAction {
  const found = verdict.found.kind === "version" ? verdict.found.version : undefined;
  const base = { path: verdict.file.path, change: changeOf(found, verdict.file.desired) };
  switch (verdict.action) {
    case "restore":
      return { ...base, outcome: "restored" };
    case "unchanged":
      return { path: verdict.file.path, outcome: "unchanged" };
    case "unavailable":
      return {
        ...base,
        outcome: "failed",
        reason: "its earlier content is no longer in the checkpoint store",
      };
    default:
      return {
        ...base,
        outcome: "conflict",
        reason:
          verdict.found.kind === "other"
            ? `it is ${verdict.found.what} now`
            : "it changed since panto last recorded it (by you or another program)",
      };
  }
}

/** What a prepared rewind would do to each file, skipped paths last (a dry run's answer). */
export function plannedActions(prepared: PreparedRewind): FileAction[] {
  if (prepared.code === undefined) return [];
  return [
    ...prepared.code.verdicts.map(verdictAction).sort((a, b) => a.path.localeCompare(b.path)),
    ...prepared.code.plan.skipped.map(
      (item): FileAction => ({ path: item.path, outcome: "skipped", reason: UNCOVERED_WORDS[item.reason] }),
    ),
  ];
}

/** What a rewind did to each file, as its entry records it. */
export function doneActions(report: RewindReport): FileAction[] {
  const changes = new Map(report.entry.files.map((file) => [file.path, file]));
  const skipped = (item: { outcome: RewindOutcome }) => (item.outcome === "skipped" ? 1 : 0);
  const ordered = [...report.entry.outcomes].sort(
    (a, b) => skipped(a) - skipped(b) || (skipped(a) === 1 ? 0 : a.path.localeCompare(b.path)),
  );
  return ordered.map((item) => {
    const change = changes.get(item.path);
    return {
      ...item,
      ...(change === undefined ? {} : { change: changeOf(change.before, change.after) }),
    };
  });
}

const PLANNED: Record<NonNullable<FileAction["change"]>, string> = {
  create: "recreate",
  delete: "remove",
  modify: "restore",
};
const DONE: Record<NonNullable<FileAction["change"]>, string> = {
  create: "recreated",
  delete: "removed",
  modify: "restored",
};

function actionLine(action: FileAction, dryRun: boolean): string {
  const verb =
    action.outcome === "restored" ? (dryRun ? PLANNED : DONE)[action.change ?? "modify"] : action.outcome;
  const why = action.reason === undefined ? "" : `  ${action.reason}`;
  return `    ${verb.padEnd(11)}${action.path}${why}`;
}

function target(prepared: PreparedRewind): string {
  return prepared.undo ? "just before the latest rewind" : `before turn ${prepared.turn}`;
}

function conversationLine(prepared: PreparedRewind, dryRun: boolean): string[] {
  if (prepared.scope === "code") return ["  conversation: left as it is (--code)"];
  const lines: string[] = [];
  const verb = dryRun ? "would leave" : "left";
  if (prepared.droppedTurns.length > 0)
    lines.push(
      `  conversation: turn${prepared.droppedTurns.length === 1 ? "" : "s"} ${turnRanges(prepared.droppedTurns)} ${verb} the context`,
    );
  if (prepared.restoredTurns.length > 0)
    lines.push(
      `  conversation: turn${prepared.restoredTurns.length === 1 ? "" : "s"} ${turnRanges(prepared.restoredTurns)} ${dryRun ? "would come" : "came"} back`,
    );
  return lines.length > 0 ? lines : ["  conversation: unchanged"];
}

function filesLines(actions: readonly FileAction[], prepared: PreparedRewind, dryRun: boolean): string[] {
  if (prepared.scope === "conversation") return ["  files: left as they are (--conversation)"];
  const blockers = prepared.code?.plan.blockers ?? [];
  if (blockers.length > 0) return [`  files: ${blockedMessage(blockers)}`];
  if (actions.length === 0) return ["  files: none changed after that point"];
  return ["  files:", ...actions.map((action) => actionLine(action, dryRun))];
}

/** A dry run's report: exactly what the rewind would change. */
export function describeRewindPlan(prepared: PreparedRewind): string {
  return [
    `Rewind to ${target(prepared)} (dry run: nothing was changed):`,
    ...conversationLine(prepared, true),
    ...filesLines(plannedActions(prepared), prepared, true),
  ].join("\n");
}

/** What a rewind did, and how to take it back. */
export function describeRewindDone(report: RewindReport): string {
  const actions = doneActions(report);
  const conflicts = actions.filter((action) => action.outcome === "conflict").length;
  const lines = [
    `Rewound to ${target(report.prepared)}.`,
    ...conversationLine(report.prepared, false),
    ...filesLines(actions, report.prepared, false),
  ];
  if (conflicts > 0)
    lines.push(
      `  ${conflicts} file${conflicts === 1 ? "" : "s"} changed since panto recorded them were left alone (--force overwrites them)`,
    );
  lines.push("  Undo it with /rewind --undo (or panto rewind --undo).");
  return lines.join("\n");
}

function firstLine(text: string, width = 60): string {
  const line = (text.split("\n")[0] ?? "").trim();
  return line.length > width ? `${line.slice(0, width - 1)}…` : line;
}

/** One row of the rewind list. */
export function describeRewindPoint(point: RewindPoint): string {
  if (point.kind === "rewind") {
    const undo = point.latest ? "  (--undo takes it back)" : "";
    return `  ↶      rewind to before turn ${point.turn} (${point.scope})${undo}`;
  }
  const state = point.state === "kept" ? "" : ` (${point.state})`;
  const files =
    point.files.length === 0
      ? ""
      : `  · ${point.files.slice(0, 3).join(", ")}${point.files.length > 3 ? ` +${point.files.length - 3}` : ""}`;
  const unrecorded = point.unrecorded ? "  · files not recorded" : "";
  return `  ${String(point.turn).padStart(4)}   "${firstLine(point.prompt)}"${state}${files}${unrecorded}`;
}

/** The rewind list as text: every turn and rewind in order. */
export function describeRewindPoints(points: readonly RewindPoint[]): string {
  if (points.length === 0) return "The session has no turns to rewind to.";
  return ["  turn   prompt · files it changed", ...points.map(describeRewindPoint)].join("\n");
}

/** The warning for a checkpoint that could not be taken, or undefined when it was. */
export function checkpointWarning(entry: CheckpointEntry): string | undefined {
  if (entry.error === undefined) return undefined;
  return `checkpoints unavailable: ${entry.error}; what this ${entry.tool} call changed cannot be rewound (the conversation still can)`;
}
