import { EXIT_FAILURE, EXIT_USAGE } from "../../cli/exit-status.js";
import { EditorError } from "../../cli/terminal/edit-in-editor.js";
import type { CompactionPreview } from "../../compaction/index.js";
import { optional } from "../../core/index.js";
import { composeCompactionSummary, readCompactionHistory, type Session } from "../../session/index.js";
import { formatRestored, formatTokens, plural, shorten } from "../format-text.js";
import type { RunContext } from "../start-run.js";
import { failed, ok, type SlashIo, type SlashResult } from "./command-outcome.js";

const PREVIEW_FLAG = /^--preview(?:\s+|$)/;

/** "/compact --preview ..." asks for the plan only. */
export function isPreview(args: string): boolean {
  return PREVIEW_FLAG.test(args);
}

/** `/compact --preview [instructions]`: the plan, no model call, nothing written. */
export async function runPreview(run: RunContext, args: string): Promise<SlashResult> {
  const instructions = args.replace(PREVIEW_FLAG, "").trim();
  const preview = run.agent.previewCompaction(instructions === "" ? undefined : instructions);
  return ok(formatPreview(preview, run.agent.contextTokens()));
}

export function formatPreview(preview: CompactionPreview, contextTokens: number): string {
  const lines = ["Compaction preview (no model was called and nothing was written):"];
  if (preview.turns.length > 0) {
    lines.push("  turn  action     tokens  size from  user message");
    for (const turn of preview.turns)
      lines.push(
        `  ${String(turn.position).padEnd(4)}  ${turn.action.padEnd(9)}  ${formatTokens(turn.tokens).padStart(6)}  ${turn.source.padEnd(9)}  ${turn.userText === "" ? "(no user message)" : JSON.stringify(shorten(turn.userText, 60))}`,
      );
  }
  if (preview.nothingReason !== undefined)
    lines.push(`  nothing to summarise: ${preview.nothingReason}; /compact would call no model.`);
  else
    lines.push(
      `  would summarise ${plural(preview.turnsSummarised, "turn")} (~${formatTokens(preview.tokensSummarised)} tokens) and keep ${plural(preview.turnsKept, "turn")} verbatim (~${formatTokens(preview.tokensKept)} tokens); context now ~${formatTokens(contextTokens)} tokens with the system prompt`,
      `  summary by ${preview.model}${preview.fallbackModel === undefined ? "" : ` (falls back to ${preview.fallbackModel})`}; summary request ~${formatTokens(preview.requestTokens)} tokens`,
    );
  lines.push(
    `  sizes: ${plural(preview.sizeSources.usage, "turn")} from provider usage, ${preview.sizeSources.estimate} from the local estimate`,
  );
  if (preview.instructions !== undefined) lines.push(`  instructions: ${preview.instructions}`);
  return lines.join("\n");
}

/** `/uncompact`: undoes the compaction in effect. */
export async function runUncompact(run: RunContext, args: string): Promise<SlashResult> {
  if (args !== "") return failed(EXIT_USAGE, "usage", "/uncompact takes no arguments");
  const outcome = await run.agent.uncompact();
  if (outcome.type === "nothing-to-undo") return ok("Nothing to undo: no compaction is in effect.");
  const { compaction } = outcome;
  return ok(
    [
      `Undid the ${compaction.trigger} compaction ${compaction.id} (${compaction.ts}): the context is what it was before it, followed by everything written since (~${formatTokens(outcome.tokensBefore)} -> ~${formatTokens(outcome.tokensAfter)} tokens). It stays in the session file.`,
      outcome.earlier
        ? "An earlier compaction is now in effect; /uncompact again undoes it."
        : "No compaction is in effect now.",
    ].join("\n"),
  );
}

/** `/pin TEXT` */
export async function runPin(run: RunContext, args: string): Promise<SlashResult> {
  if (args === "")
    return failed(EXIT_USAGE, "usage", "/pin needs the note's text, e.g. /pin never touch src/legacy/");
  const number = await run.agent.pin(args);
  return ok(
    `Pinned note ${number}: ${args}\nThe model sees it from now on, word for word, through every compaction.`,
  );
}

/** `/pins`: the notes in force, numbered as /unpin takes them. */
export function describePins(run: RunContext): string {
  const pins = run.session.pins();
  if (pins.length === 0) return "No pinned notes. /pin TEXT adds one.";
  return ["Pinned notes:", ...pins.map((pin, index) => `  ${index + 1}. ${pin.text}`)].join("\n");
}

/** `/unpin N` */
export async function runUnpin(run: RunContext, args: string): Promise<SlashResult> {
  const number = /^\d+$/.test(args) ? Number(args) : Number.NaN;
  const count = run.session.pins().length;
  if (!Number.isInteger(number) || number < 1 || number > count)
    return failed(
      EXIT_USAGE,
      "usage",
      count === 0
        ? "there are no pinned notes to unpin"
        : `/unpin needs a note number from 1 to ${count} (/pins lists them); got "${args}"`,
    );
  const text = await run.agent.unpin(number);
  return ok(`Unpinned note ${number}: ${text ?? ""}`);
}

/** `/summary` prints the summary in effect; `/summary edit` opens it in the user's editor. */
export async function runSummary(
  run: RunContext,
  args: string,
  _signal: AbortSignal | undefined,
  io: SlashIo,
): Promise<SlashResult> {
  if (args !== "" && args !== "edit")
    return failed(EXIT_USAGE, "usage", `/summary takes no argument or "edit"; got "${args}"`);
  const base = run.session.activeCompaction();
  if (base === undefined) return ok("No summary: no compaction is in effect.");
  if (args === "") {
    const text = composeCompactionSummary({
      summary: base.summary,
      ...optional("restored", base.restored),
    });
    return ok(
      `Summary in effect (${base.trigger} compaction ${base.id}, ${base.ts}, model ${base.model}):\n\n${text}`,
    );
  }
  let edited: string;
  try {
    edited = await io.editText(`${base.summary.trim()}\n`);
  } catch (error) {
    if (error instanceof EditorError) return failed(EXIT_USAGE, "editor", error.message);
    throw error;
  }
  const outcome = await run.agent.editSummary(edited);
  switch (outcome.type) {
    case "edited":
      return ok(
        `Summary replaced: compaction ${outcome.compaction.id} (trigger edited) now carries your text (~${formatTokens(outcome.compaction.summaryTokens)} tokens). /uncompact brings back the previous one.`,
      );
    case "unchanged":
      return ok("The summary is unchanged; nothing was written.");
    case "empty":
      return failed(EXIT_FAILURE, "usage", "the edited summary is empty; the summary is unchanged");
    case "no-summary":
      return ok("No summary: no compaction is in effect.");
  }
}

/** The session's compactions, failed and undone ones included (reads the whole file). */
export async function describeCompactionHistory(session: Session): Promise<string> {
  // A session that has written nothing yet has no file to read.
  const history = session.hasFile ? await readCompactionHistory(session.path) : [];
  const undone = new Set(
    history.flatMap((entry) => (entry.type === "uncompact" ? [entry.compactionId] : [])),
  );
  const rows = history.flatMap((entry): string[] => {
    if (entry.type === "uncompact") return [];
    if (entry.type === "compaction-failed") {
      const last = entry.attempts.at(-1);
      return [
        `    ${entry.ts}  ${entry.trigger.padEnd(8)}  FAILED  ${entry.attempts.map((attempt) => `${attempt.model}: ${attempt.code}`).join(", then ")}${last === undefined ? "" : ` (${shorten(last.message, 80)})`}`,
      ];
    }
    const restored = formatRestored(entry.restored ?? []);
    const what =
      entry.trigger === "edited"
        ? `summary edited by the user (of ${entry.editedFrom ?? "?"})`
        : `${plural(entry.turnsSummarised, "turn")} summarised, ${entry.turnsKept} kept, model ${entry.model}${restored === "" ? "" : `; ${restored}`}`;
    return [
      `    ${entry.ts}  ${entry.trigger.padEnd(8)}  ${entry.id}  ${what}${undone.has(entry.id) ? "  (undone)" : ""}`,
    ];
  });
  const failures = history.filter((entry) => entry.type === "compaction-failed").length;
  if (rows.length === 0) return "  compactions: none";
  return [
    `  compactions: ${rows.length - failures} written, ${failures} failed, ${undone.size} undone`,
    ...rows,
  ].join("\n");
}
