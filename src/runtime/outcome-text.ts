import type { PendingCompaction } from "../agent/index.js";
import {
  describeRewindDone,
  describeRewindPlan,
  describeRewindPoints,
} from "../checkpoints/describe-rewind.js";
import type { CompactionPreview } from "../compaction/index.js";
import type { CommandFailure, CommandOutcome } from "./command-outcome.js";
import { formatCompactionReport, formatTokens, plural, shorten } from "./format-text.js";
import { describeFork } from "./setup/fork-run-session.js";
import { todoListText } from "./todo-text.js";

/** A command's outcome as plain text: what every front-end shows, each in its own way. */
export interface OutcomeReport {
  /** The report users read (stdout in print mode, `text` of JSON `done`); "" when there is only an error. */
  text: string;
  /** Set when the command failed. */
  error?: CommandFailure;
  /** The command asks to leave (/exit). */
  exit: boolean;
}

const report = (text: string): OutcomeReport => ({ text, exit: false });

/** The one plain-text rendering of each outcome (the terminal adds colour, print mode writes it as is). */
export function describeOutcome(outcome: CommandOutcome): OutcomeReport {
  switch (outcome.type) {
    case "failed": {
      const { status, code, message } = outcome;
      return { text: "", error: { status, code, message }, exit: false };
    }
    case "exit":
      return { text: "", exit: true };
    case "compaction-failed":
      return { text: "", error: compactionFailure(outcome), exit: false };
    default:
      return report(successText(outcome));
  }
}

type Success = Exclude<CommandOutcome, { type: "failed" | "exit" | "compaction-failed" }>;

function successText(outcome: Success): string {
  switch (outcome.type) {
    case "compacted":
      return formatCompactionReport(outcome.record, outcome.tokensBefore, outcome.tokensAfter);
    case "nothing-to-compact":
      return `Nothing to compact: ${outcome.reason}. No model was called.${outcome.forcible === true ? " /compact --force summarises all but the latest turn anyway." : ""}`;
    case "compaction-preview":
      return formatPreview(outcome.preview, outcome.contextTokens);
    case "uncompacted":
      return [
        `Undid the ${outcome.compaction.trigger} compaction ${outcome.compaction.id} (${outcome.compaction.ts}): the context is what it was before it, followed by everything written since (next request ${formatTokens(outcome.tokensBefore)} -> ${formatTokens(outcome.tokensAfter)} tokens, system prompt and tools included). It stays in the session file.`,
        outcome.earlier
          ? "An earlier compaction is now in effect; /uncompact again undoes it."
          : "No compaction is in effect now.",
      ].join("\n");
    case "nothing-to-undo":
      return "Nothing to undo: no compaction is in effect.";
    case "uncleared":
      return `Took back clearing ${outcome.clearingId}: ${plural(outcome.toolResults, "tool output")} whole in the context again (next request ${formatTokens(outcome.tokensBefore)} -> ${formatTokens(outcome.tokensAfter)} tokens). Clearing pauses until the context has grown by clearing.min_reclaim_tokens. The clearing stays in the session file.`;
    case "nothing-to-unclear":
      return "Nothing to take back: no clearing of tool results is in effect.";
    case "pinned":
      return `Pinned note ${outcome.number}: ${outcome.text}\nThe model sees it from now on, word for word, through every compaction.`;
    case "unpinned":
      return `Unpinned note ${outcome.number}: ${outcome.text}`;
    case "todo-list":
      return todoListText(outcome.items, outcome.completed, outcome.total);
    case "pins":
      return outcome.pins.length === 0
        ? "No pinned notes. /pin TEXT adds one."
        : ["Pinned notes:", ...outcome.pins.map((pin, index) => `  ${index + 1}. ${pin}`)].join("\n");
    case "summary-shown": {
      const { compaction } = outcome;
      return `Summary in effect (${compaction.trigger} compaction ${compaction.id}, ${compaction.ts}, model ${compaction.model}):\n\n${outcome.text}${pendingText(outcome.pending)}`;
    }
    case "no-summary":
      return `No summary: no compaction is in effect.${pendingText(outcome.pending)}`;
    case "prepared-discarded":
      return outcome.discarded
        ? "The summary prepared ahead is discarded; the next overflow asks for a new one."
        : "No summary is prepared ahead; nothing to discard.";
    case "summary-edited":
      return `Summary replaced: compaction ${outcome.compactionId} (trigger edited) now carries your text (~${formatTokens(outcome.summaryTokens)} tokens). /uncompact brings back the previous one.`;
    case "summary-unchanged":
      return "The summary is unchanged; nothing was written.";
    case "model-switched":
      return `Model: ${outcome.model}${outcome.unchecked === undefined ? "" : ` (not checked against a model list: ${outcome.unchecked})`}`;
    case "models-listed":
      return modelsText(outcome);
    case "session-cleared":
      return `Started a new session: ${outcome.path}`;
    case "handoff-drafted":
      return `${outcome.draft}\n\n(A handoff draft${outcome.model === undefined ? "" : ` by ${outcome.model}`}; nothing was started. Give --yes to start a new session with it as its first prompt, or use /handoff in the interactive session to review and edit it first.)`;
    case "handoff-cancelled":
      return "Handoff cancelled: no session was started.";
    case "handed-off":
      return `${handedOffLine(outcome)}\n\n${outcome.answer}`;
    case "exported":
      return `Exported ${plural(outcome.entries, "entry", "entries")} to ${outcome.target}`;
    case "agents-file": {
      const agents = outcome.changed
        ? `/init: ${outcome.existed ? "updated" : "wrote"} ${outcome.path}.`
        : `/init: the model did not ${outcome.existed ? "change" : "write"} ${outcome.path}.`;
      return outcome.ignored === undefined
        ? agents
        : `${agents} Added .panto/config.local.json to ${outcome.ignored}, so your own settings stay out of commits.`;
    }
    case "rewound":
      return outcome.report === undefined
        ? describeRewindPlan(outcome.prepared)
        : describeRewindDone(outcome.report);
    case "rewind-points":
      return `${describeRewindPoints(outcome.points)}\n/rewind TURN [--code|--conversation] [--dry-run] goes back to before TURN; /rewind --undo takes the latest rewind back.`;
    case "forked":
      return describeFork(outcome.fork);
    case "prompt-answered":
    case "info":
      return outcome.text;
  }
}

function compactionFailure(outcome: Extract<CommandOutcome, { type: "compaction-failed" }>): CommandFailure {
  if (outcome.code === "aborted")
    return {
      status: "interrupted",
      code: "aborted",
      message: "compaction cancelled; the session is unchanged",
    };
  if (outcome.attempts.length === 0)
    return { status: "failure", code: outcome.code, message: `${outcome.message}; the context is unchanged` };
  const attempts = outcome.attempts.map((attempt) => `${attempt.model}: ${attempt.message}`);
  return {
    status: "failure",
    code: outcome.code,
    message: `compaction failed; the context is unchanged (the failure is recorded in the session).\n  ${attempts.join("\n  ")}`,
  };
}

function modelsText(outcome: Extract<CommandOutcome, { type: "models-listed" }>): string {
  const { model, provider, listed } = outcome;
  const mark = (id: string): string => `${id === model ? "*" : " "} ${id}`;
  const lines = [`Model: ${model}`];
  if (listed.type === "listed")
    lines.push(`${provider} lists ${listed.ids.length}:`, ...listed.ids.map((id) => `  ${mark(id)}`));
  else lines.push(`${provider}'s model list is unavailable: ${listed.reason}`);
  const configured = [...new Set(outcome.configured)];
  if (configured.length > 0) lines.push("Configured:", ...configured.map((id) => `  ${mark(id)}`));
  lines.push("/model PROVIDER/MODEL switches (Tab completes); the choice is kept in the session.");
  return lines.join("\n");
}

/** The text of `/compact --preview`. */
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
      `  would summarise ${plural(preview.turnsSummarised, "turn")} (~${formatTokens(preview.tokensSummarised)} tokens) and keep ${plural(preview.turnsKept, "turn")} verbatim (~${formatTokens(preview.tokensKept)} tokens); next request now ${formatTokens(contextTokens)} tokens, system prompt and tools included`,
      `  summary by ${preview.model}${preview.fallbackModel === undefined ? "" : ` (falls back to ${preview.fallbackModel})`}; summary request ~${formatTokens(preview.requestTokens)} tokens`,
    );
  lines.push(
    `  sizes: ${plural(preview.sizeSources.usage, "turn")} from provider usage, ${preview.sizeSources.estimate} from the local estimate`,
  );
  if (preview.instructions !== undefined) lines.push(`  instructions: ${preview.instructions}`);
  return lines.join("\n");
}

/** The line that says where a handoff went: the new session, and that the old one stays. */
export function handedOffLine(outcome: Extract<CommandOutcome, { type: "handed-off" }>): string {
  return `Handed off to a new session ${outcome.session.id.slice(0, 8)} (${outcome.session.path}); its first prompt is the draft, and recall there reaches this session too. The old session ${outcome.parent.id.slice(0, 8)} stays as it was: panto -r ${outcome.parent.id.slice(0, 8)} resumes it.`;
}

/** The summary prepared ahead, after what `/summary` shows of the one in effect. */
function pendingText(pending: PendingCompaction | undefined): string {
  if (pending === undefined) return "";
  if (pending.state === "writing")
    return "\n\nA summary is being prepared ahead (pending: the next overflow waits for it and applies it; /summary discard drops it).";
  const turns = pending.turns === 1 ? "1 turn" : `${pending.turns} turns`;
  const when =
    pending.coldCache === true
      ? "the prompt cache has expired: your next prompt applies it before its request"
      : "the next overflow, or a /compact of the same turns, applies it without a new summary request";
  return `\n\nPrepared ahead, pending (${when}; /summary discard drops it): ${turns} (~${formatTokens(pending.tokensSummarised)} tokens), model ${pending.model}:\n\n${pending.summary}`;
}
