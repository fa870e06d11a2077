import { createInterface } from "node:readline/promises";
import {
  blockedMessage,
  describeRewindDone,
  describeRewindPlan,
  describeRewindPoint,
  describeRewindPoints,
  isRewindError,
  listRewindPoints,
  type PreparedRewind,
  type RewindReport,
  type RewindTarget,
} from "../../checkpoints/index.js";
import { findProjectRoot, resolvePantoHome } from "../../config/index.js";
import { rewindSession } from "../../runtime/rewind-session.js";
import { resolveSessionArgument } from "../../runtime/setup/session-argument.js";
import { UsageError } from "../../runtime/setup/setup-errors.js";
import { isSessionError, openSession, type RewindScope } from "../../session/index.js";
import type { CliIo } from "../cli-io.js";
import { EXIT_FAILURE, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE } from "../exit-status.js";
import { type ListItem, pickFromList } from "../terminal/list-picker.js";
import { rewindJson } from "./rewind-json.js";

/** `panto rewind [SESSION] [--to TURN | --undo] [--code | --conversation | --both] [--dry-run] [--force] [--json]` */
export interface RewindCliOptions {
  session?: string;
  to?: number;
  undo: boolean;
  scope: RewindScope;
  dryRun: boolean;
  force: boolean;
  json: boolean;
}

type RewindIo = Pick<CliIo, "cwd" | "env" | "stdin" | "stdout" | "stderr">;

function interactive(io: RewindIo): boolean {
  return io.stdin.isTTY === true && (io.stderr as { isTTY?: boolean }).isTTY === true;
}

/** Lets the user choose the point in a terminal; without one, the list goes to stderr and it is a usage error. */
async function chooseTarget(sessionPath: string, io: RewindIo): Promise<RewindTarget | number> {
  const points = await listRewindPoints(sessionPath);
  if (!interactive(io)) {
    io.stderr.write(
      `panto rewind: give --to TURN (the turn to go back to before) or --undo; the session's turns:\n${describeRewindPoints(points)}\n`,
    );
    return EXIT_USAGE;
  }
  const items: ListItem<RewindTarget>[] = points.map((point) => ({
    text: describeRewindPoint(point),
    value: point.kind === "turn" ? { turn: point.turn } : { undo: true },
    disabled: point.kind === "rewind" && !point.latest,
  }));
  const chosen = await pickFromList(
    "Rewind to before which turn? ↑/↓ choose, Enter rewinds, Esc cancels",
    items,
    { stdin: io.stdin, stdout: io.stderr },
  );
  return chosen ?? EXIT_INTERRUPTED;
}

/** In a terminal, asks whether to overwrite files changed since panto recorded them. */
async function confirmOverwrite(prepared: PreparedRewind, io: RewindIo): Promise<boolean> {
  const conflicts = prepared.code?.verdicts.filter((verdict) => verdict.action === "conflict") ?? [];
  if (conflicts.length === 0 || !interactive(io)) return false;
  const names = conflicts.map((verdict) => `  ${verdict.file.path}`).join("\n");
  const question = createInterface({ input: io.stdin, output: io.stderr });
  try {
    const answer = await question.question(
      `${conflicts.length} file${conflicts.length === 1 ? "" : "s"} changed since panto recorded ${conflicts.length === 1 ? "it" : "them"}:\n${names}\nOverwrite ${conflicts.length === 1 ? "it" : "them"} too? [y/N] `,
    );
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    question.close();
  }
}

async function targetOf(options: RewindCliOptions, sessionPath: string, io: RewindIo) {
  if (options.undo) return { undo: true } as const;
  if (options.to !== undefined) return { turn: options.to };
  return await chooseTarget(sessionPath, io);
}

/**
 * `panto rewind`: takes the code, the conversation or both of a session back to just before a
 * turn (or undoes the latest rewind). The session is read whole to plan, then opened (locked) to
 * append the rewind entry. A dry run writes nothing anywhere.
 */
export async function runRewind(options: RewindCliOptions, io: RewindIo): Promise<number> {
  const pantoHome = resolvePantoHome(io.env);
  try {
    const projectRoot = findProjectRoot(io.cwd, { pantoHome });
    const sessionPath = await resolveSessionArgument(options.session, "panto rewind", {
      cwd: io.cwd,
      pantoHome,
      projectRoot,
    });
    const target = await targetOf(options, sessionPath, io);
    if (typeof target === "number") return target;
    // The same path as /rewind; the session is opened (locked) only to append the rewind entry.
    const result = await rewindSession({
      sessionPath,
      pantoHome,
      target,
      scope: options.scope,
      dryRun: options.dryRun,
      force: options.force ? true : (prepared) => confirmOverwrite(prepared, io),
      withSession: async (use) => {
        const session = await openSession(sessionPath, {
          cwd: io.cwd,
          onWarning: (text) => io.stderr.write(`panto: warning: ${text}\n`),
        });
        try {
          return await use(session);
        } finally {
          await session.close();
        }
      },
    });
    return report(result.prepared, result.report, io, options.json);
  } catch (error) {
    const kind = usageKind(error);
    if (kind === undefined || !(error instanceof Error)) throw error;
    // Some messages already name the command (they are shared with `panto export` and others).
    const message = error.message.replace(/^panto rewind: /, "");
    if (options.json) io.stdout.write(`${JSON.stringify({ type: "error", code: kind, message })}\n`);
    io.stderr.write(`panto rewind: ${message}\n`);
    return EXIT_USAGE;
  }
}

/** The `--json` error code of a usage problem (exit 2), or undefined for anything else. */
function usageKind(error: unknown): string | undefined {
  if (error instanceof UsageError) return error.kind;
  if (isSessionError(error)) return "session";
  if (isRewindError(error) && error.kind === "usage") return "usage";
  return undefined;
}

/** Writes the outcome (text, or one JSON event); a rewind the checkpoints cannot make is status 1. */
function report(
  prepared: PreparedRewind,
  done: RewindReport | undefined,
  io: RewindIo,
  json: boolean,
): number {
  const blockers = prepared.code?.plan.blockers ?? [];
  if (json) io.stdout.write(`${JSON.stringify(rewindJson(prepared, done))}\n`);
  if (blockers.length > 0) {
    io.stderr.write(`panto rewind: ${blockedMessage(blockers)}\n`);
    return EXIT_FAILURE;
  }
  if (!json)
    io.stdout.write(`${done === undefined ? describeRewindPlan(prepared) : describeRewindDone(done)}\n`);
  return EXIT_OK;
}
