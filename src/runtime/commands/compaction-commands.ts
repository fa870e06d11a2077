import type { Agent } from "../../agent/index.js";
import { optional } from "../../core/index.js";
import { composeCompactionSummary, readCompactionHistory, type Session } from "../../session/index.js";
import { type CommandOutcome, failed, usageError } from "../command-outcome.js";
import { formatRestored, plural, shorten } from "../format-text.js";
import { EditorError } from "../front-end.js";
import type { CommandHandler, RunContext } from "../run-context.js";

/** The flags `/compact` takes before its instructions, in any order. */
interface CompactFlags {
  preview: boolean;
  force: boolean;
  /** What follows the flags: instructions for the compaction prompt. */
  instructions: string | undefined;
}

/** Reads leading `--preview` and `--force`; anything after them is the instructions, word for word. */
export function parseCompactArgs(args: string): CompactFlags {
  let rest = args.trim();
  const flags = { preview: false, force: false };
  for (;;) {
    const flag = /^--(preview|force)(?:\s+|$)/.exec(rest);
    if (flag === null) break;
    flags[flag[1] as "preview" | "force"] = true;
    rest = rest.slice(flag[0].length);
  }
  return { ...flags, instructions: rest === "" ? undefined : rest };
}

/** `/compact [--preview] [--force] [instructions]`. */
export const runCompactCommand: CommandHandler = (run, args, signal) => {
  const flags = parseCompactArgs(args);
  return flags.preview ? runPreview(run, flags) : runCompact(run, flags, signal);
};

/** `/compact --preview [--force] [instructions]`: the plan, no model call, nothing written. */
async function runPreview(run: RunContext, flags: CompactFlags): Promise<CommandOutcome> {
  const preview = run.agent.previewCompaction(flags.instructions, { force: flags.force });
  return { type: "compaction-preview", preview, contextTokens: run.agent.contextTokens() };
}

async function runCompact(
  run: RunContext,
  flags: CompactFlags,
  signal: AbortSignal | undefined,
): Promise<CommandOutcome> {
  // The next request's size, measured before and after alike (the figure /context shows).
  const before = run.agent.contextTokens();
  const outcome = await run.agent.compact(flags.instructions, {
    force: flags.force,
    ...optional("signal", signal),
  });
  switch (outcome.type) {
    case "compacted":
      return {
        type: "compacted",
        record: outcome.record,
        tokensBefore: before,
        tokensAfter: run.agent.contextTokens(),
      };
    case "nothing-to-summarise":
      return {
        type: "nothing-to-compact",
        reason: outcome.reason,
        ...(outcome.forcible ? { forcible: true } : {}),
      };
    case "failed":
      return {
        type: "compaction-failed",
        code: outcome.error.code,
        message: outcome.error.message,
        attempts: outcome.attempts.map((attempt) => ({
          model: attempt.model,
          message: attempt.error.message,
        })),
        ...(outcome.blocked === true ? { blocked: true as const } : {}),
      };
  }
}

/** `/uncompact`: undoes the compaction in effect. */
export const runUncompact: CommandHandler = async (run, args) => {
  if (args !== "") return usageError("/uncompact takes no arguments");
  const outcome = await run.agent.uncompact();
  if (outcome.type === "nothing-to-undo") return outcome;
  const { id, trigger, ts } = outcome.compaction;
  return {
    type: "uncompacted",
    compaction: { id, trigger, ts },
    tokensBefore: outcome.tokensBefore,
    tokensAfter: outcome.tokensAfter,
    earlier: outcome.earlier,
  };
};

/** `/unclear`: takes back the latest clearing of old tool results. */
export const runUnclear: CommandHandler = async (run, args) => {
  if (args !== "") return usageError("/unclear takes no arguments");
  const outcome = await run.agent.unclear();
  if (outcome.type === "nothing-to-unclear") return outcome;
  return {
    type: "uncleared",
    clearingId: outcome.clearingId,
    toolResults: outcome.toolCallIds.length,
    tokensBefore: outcome.tokensBefore,
    tokensAfter: outcome.tokensAfter,
  };
};

/** `/pin TEXT` */
export const runPin: CommandHandler = async (run, args) => {
  if (args === "") return usageError("/pin needs the note's text, e.g. /pin never touch src/legacy/");
  const number = await run.agent.pin(args);
  return { type: "pinned", number, text: args };
};

/** `/pins`: the notes in force, numbered as /unpin takes them. */
export const runPins: CommandHandler = async (run) => ({
  type: "pins",
  pins: run.session.pins().map((pin) => pin.text),
});

/** `/unpin N` */
export const runUnpin: CommandHandler = async (run, args) => {
  const number = /^\d+$/.test(args) ? Number(args) : Number.NaN;
  const count = run.session.pins().length;
  if (!Number.isInteger(number) || number < 1 || number > count)
    return usageError(
      count === 0
        ? "there are no pinned notes to unpin"
        : `/unpin needs a note number from 1 to ${count} (/pins lists them); got "${args}"`,
    );
  const text = await run.agent.unpin(number);
  return { type: "unpinned", number, text: text ?? "" };
};

/**
 * `/summary` prints the summary in effect and any prepared ahead (pending); `/summary edit` opens
 * the one in effect in the user's editor; `/summary edit TEXT` stores TEXT in its place (for
 * front-ends without an editor: ACP, JSON); `/summary discard` drops the pending one.
 */
export const runSummary: CommandHandler = async (run, args) => {
  const edit = /^edit(?:\s+([\s\S]*))?$/.exec(args);
  if (args === "discard")
    return { type: "prepared-discarded", discarded: run.agent.discardPreparedCompaction({ byUser: true }) };
  if (args !== "" && edit === null)
    return usageError(
      `/summary takes no argument, "edit", or "edit" and the new summary (or "discard", which drops a summary prepared ahead); got "${args}"`,
    );
  const base = run.session.activeCompaction();
  const pending = args === "" ? run.agent.pendingCompaction() : undefined;
  if (base === undefined) return { type: "no-summary", ...optional("pending", pending) };
  if (args === "") {
    const text = composeCompactionSummary({
      summary: base.summary,
      ...optional("restored", base.restored),
      ...optional("skills", base.skills),
    });
    const { id, trigger, ts, model } = base;
    return {
      type: "summary-shown",
      compaction: { id, trigger, ts, model },
      text,
      ...optional("pending", pending),
    };
  }
  const inline = edit?.[1]?.trim() ?? "";
  if (inline !== "") return editedOutcome(await run.agent.editSummary(inline));
  const { editText } = run.frontEnd;
  if (editText === undefined)
    return usageError(
      "/summary edit needs an editor, and there is none here (or give the new summary: /summary edit TEXT); the summary is unchanged",
      "editor",
    );
  let edited: string;
  try {
    edited = await editText(`${base.summary.trim()}\n`);
  } catch (error) {
    if (error instanceof EditorError) return usageError(error.message, "editor");
    throw error;
  }
  return editedOutcome(await run.agent.editSummary(edited));
};

/** What the agent's editSummary did. */
type EditOutcome = Awaited<ReturnType<Agent["editSummary"]>>;

function editedOutcome(outcome: EditOutcome): CommandOutcome {
  switch (outcome.type) {
    case "edited":
      return {
        type: "summary-edited",
        compactionId: outcome.compaction.id,
        summaryTokens: outcome.compaction.summaryTokens,
        tokensBefore: outcome.tokensBefore,
        tokensAfter: outcome.tokensAfter,
      };
    case "unchanged":
      return { type: "summary-unchanged" };
    case "empty":
      return failed("failure", "usage", "the edited summary is empty; the summary is unchanged");
    case "no-summary":
      return { type: "no-summary" };
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
