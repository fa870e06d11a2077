import { findProjectRoot, resolvePantoHome } from "../../config/index.js";
import type { CliIo } from "../../frontends/shared/cli-io.js";
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE } from "../../frontends/shared/exit-status.js";
import { ImportError, type ImportOutcome, type ImportReport, importSessions } from "../../import/index.js";

/** `panto import FILE|DIR [--dry-run] [--json]` */
export interface ImportCliOptions {
  target: string;
  dryRun: boolean;
  json: boolean;
}

/**
 * `panto import`: makes a session of this project from each Claude Code, Codex or pi session file
 * named (or found under a folder), then reports what it made: a line or two per session, or with
 * --json one object (the shape is in the README). Exit 2 when FILE is no such session or DIR holds
 * none, 1 when a recognised file failed, else 0.
 */
export async function runImport(
  options: ImportCliOptions,
  io: Pick<CliIo, "cwd" | "env" | "stdout" | "stderr">,
): Promise<number> {
  let outcome: ImportOutcome;
  try {
    const pantoHome = resolvePantoHome(io.env);
    const projectRoot = findProjectRoot(io.cwd, { pantoHome });
    outcome = await importSessions(options.target, { pantoHome, projectRoot, cwd: io.cwd }, options.dryRun);
  } catch (error) {
    if (!(error instanceof ImportError)) throw error;
    if (options.json)
      io.stdout.write(`${JSON.stringify({ type: "error", code: "usage", message: error.message })}\n`);
    io.stderr.write(`panto import: ${error.message}\n`);
    return EXIT_USAGE;
  }
  for (const report of outcome.sessions)
    for (const warning of report.warnings) io.stderr.write(`panto import: warning: ${warning}\n`);
  for (const failure of outcome.failed) io.stderr.write(`panto import: ${failure.error}\n`);
  if (options.json) io.stdout.write(`${JSON.stringify(importJson(outcome))}\n`);
  else io.stdout.write(importText(outcome, options.target));
  if (outcome.failed.length > 0) return EXIT_FAILURE;
  if (outcome.sessions.length === 0) {
    io.stderr.write(`panto import: no Claude Code, Codex or pi session under ${options.target}\n`);
    return EXIT_USAGE;
  }
  return EXIT_OK;
}

/** The --json report: one object for the whole command (documented in the README). */
export function importJson(outcome: ImportOutcome): Record<string, unknown> {
  return {
    type: "import",
    dry_run: outcome.dryRun,
    sessions: outcome.sessions.map(sessionJson),
    failed: outcome.failed,
    unrecognised: outcome.unrecognised,
  };
}

function sessionJson(report: ImportReport): Record<string, unknown> {
  const counts = report.counts;
  return {
    source: report.source,
    format: report.format,
    status: report.status,
    session_id: report.sessionId,
    session_path: report.sessionPath,
    source_session_id: report.sourceSessionId ?? null,
    source_cwd: report.sourceCwd ?? null,
    model: report.model ?? null,
    ...(counts === undefined
      ? {}
      : {
          turns: counts.turns,
          messages: counts.messages,
          tool_calls: counts.toolCalls,
          tool_results: counts.toolResults,
          unanswered_calls: counts.unansweredCalls,
          orphan_results: counts.orphanResults,
          thinking: counts.thinking,
          images: counts.images,
          compactions: counts.compactions,
          kept_copies: counts.keptCopies,
          answers_with_usage: counts.answersWithUsage,
          notes: counts.notes,
          unknown: counts.unknown,
        }),
    skipped: report.skipped ?? {},
    warnings: report.warnings,
  };
}

function plural(count: number, word: string, many = `${word}s`): string {
  return `${count} ${count === 1 ? word : many}`;
}

function sessionText(report: ImportReport): string {
  const short = report.sessionId.slice(0, 8);
  if (report.status === "exists")
    return `Already imported: ${report.source} is session ${short} (${report.sessionPath}); panto -r ${short} continues it\n`;
  const counts = report.counts;
  const head =
    report.status === "imported"
      ? `Imported ${report.format} session ${report.source} as ${short} (${report.sessionPath})\n`
      : `Would import ${report.format} session ${report.source} as a new session (${report.sessionPath})\n`;
  if (counts === undefined) return head;
  const unknown = Object.entries(counts.unknown).map(([type, count]) => `${type} x${count}`);
  const figures = [
    plural(counts.turns, "turn"),
    `${plural(counts.messages.assistant, "answer")} (${counts.answersWithUsage} with usage)`,
    `${plural(counts.toolCalls, "tool call")} (${counts.unansweredCalls} without a result)`,
    plural(counts.thinking, "thinking block"),
    plural(counts.images, "image placeholder"),
    `${plural(counts.compactions, "compaction")} (${plural(counts.keptCopies, "kept copy", "kept copies")})`,
    `${plural(counts.notes, "note")}${unknown.length === 0 ? "" : ` (unknown: ${unknown.join(", ")})`}`,
  ];
  const tail = report.status === "imported" ? `  panto -r ${short} continues it\n` : "";
  return `${head}  ${figures.join(", ")}\n${tail}`;
}

function importText(outcome: ImportOutcome, target: string): string {
  const lines = outcome.sessions.map(sessionText);
  if (outcome.unrecognised.length > 0)
    lines.push(
      `${plural(outcome.unrecognised.length, "file")} under ${target} not a Claude Code, Codex or pi session; left alone\n`,
    );
  return lines.join("");
}
