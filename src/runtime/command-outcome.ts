import type { PendingCompaction } from "../agent/index.js";
import type { PreparedRewind, RewindPoint, RewindReport } from "../checkpoints/index.js";
import type { CompactionPreview } from "../compaction/index.js";
import type { CompactionRecord, CompactionTrigger, FlaggedTodoItem } from "../core/index.js";
import type { ForkedSession } from "../session/index.js";

/**
 * How a command failed, which the CLI turns into its exit status (2, 1, 3 or 130): "max-turns" is
 * a command's prompt stopped by --max-turns while the model still wanted to go on.
 */
export type FailureStatus = "usage" | "failure" | "max-turns" | "interrupted";

/** A command that did not do what it was asked: why, as a status, a short code and a message. */
export interface CommandFailure {
  status: FailureStatus;
  /** e.g. "usage", "editor", "aborted", or the ErrorCode of a model or provider failure. */
  code: string;
  message: string;
}

/** A provider's model list as "provider/model" ids, or why it could not be had. */
export type ProviderModels = { type: "listed"; ids: string[] } | { type: "unlisted"; reason: string };

/** Which compaction an outcome is about, as the user can find it in `/session`. */
export interface CompactionRef {
  id: string;
  trigger: CompactionTrigger;
  ts: string;
}

/**
 * What a command did, as data: each front-end renders it its own way (the terminal with colour,
 * print mode as text, JSON mode as events, an editor protocol as its updates), and
 * `describeOutcome` gives the one plain text of each. New commands add their own kinds here.
 */
export type CommandOutcome =
  /** `/compact`: the summary is written. Sizes are the local estimate of the context before and after. */
  | { type: "compacted"; record: CompactionRecord; tokensBefore: number; tokensAfter: number }
  /** `/compact` with nothing older than what fits the budget: no model was called. */
  /** `forcible`: everything fits, and `/compact --force` would summarise the older turns. */
  | { type: "nothing-to-compact"; reason: string; forcible?: boolean }
  /**
   * `/compact` failed (`code` "aborted": cancelled); the context is unchanged. No attempts: it was
   * refused before any model call (a PreCompact hook) and nothing was recorded.
   */
  | {
      type: "compaction-failed";
      code: string;
      message: string;
      attempts: ReadonlyArray<{ model: string; message: string }>;
      /** Refused before it started (a PreCompact hook): no compaction event reported it. */
      blocked?: true;
    }
  /** `/compact --preview`: the plan; no model was called and nothing was written. */
  | { type: "compaction-preview"; preview: CompactionPreview; contextTokens: number }
  /** `/uncompact`: `compaction` no longer applies; `earlier`: another compaction is in effect now. */
  | {
      type: "uncompacted";
      compaction: CompactionRef;
      tokensBefore: number;
      tokensAfter: number;
      earlier: boolean;
    }
  | { type: "nothing-to-undo" }
  /** `/unclear`: the clearing `clearingId` is taken back; its `toolResults` outputs are whole again. */
  | { type: "uncleared"; clearingId: string; toolResults: number; tokensBefore: number; tokensAfter: number }
  | { type: "nothing-to-unclear" }
  | { type: "pinned"; number: number; text: string }
  | { type: "unpinned"; number: number; text: string }
  /** `/pins`: the notes in force, numbered from 1 as /unpin takes them. */
  | { type: "pins"; pins: readonly string[] }
  /**
   * `/todo`: the task list in force, each item with its flag and how its evidence stands in the
   * session's record (`evidenceState`, when it names evidence); completed of total, cancelled left out.
   */
  | {
      type: "todo-list";
      items: ReadonlyArray<FlaggedTodoItem & { evidenceState?: string }>;
      completed: number;
      total: number;
    }
  /**
   * `/summary`: the summary in effect, with the facts restored into it; `pending`: the one prepared
   * ahead (config `prepare_compaction_at`), not yet applied.
   */
  | {
      type: "summary-shown";
      compaction: CompactionRef & { model: string };
      text: string;
      pending?: PendingCompaction;
    }
  /** `/summary` or `/summary edit` with no compaction in effect (`pending`: one prepared ahead). */
  | { type: "no-summary"; pending?: PendingCompaction }
  /** `/summary discard`: the summary prepared ahead was dropped (`discarded` false: there was none). */
  | { type: "prepared-discarded"; discarded: boolean }
  /**
   * `/summary edit`: the user's text is stored as compaction `compactionId` (trigger "edited");
   * `tokensBefore`, `tokensAfter`: the next request's size before and after.
   */
  | {
      type: "summary-edited";
      compactionId: string;
      summaryTokens: number;
      tokensBefore?: number;
      tokensAfter?: number;
    }
  | { type: "summary-unchanged" }
  /** `/model ID`: switched; `unchecked` says why no model list could confirm the id. */
  | { type: "model-switched"; model: string; unchecked?: string }
  /** `/model`: the active model, what its provider lists, and the configured ones. */
  | {
      type: "models-listed";
      model: string;
      provider: string;
      listed: ProviderModels;
      configured: readonly string[];
    }
  /** `/handoff` without a new session: the draft, shown (print mode without --yes). */
  | { type: "handoff-drafted"; draft: string; goal: string; model?: string }
  /** `/handoff` refused by the user at review; nothing was started. */
  | { type: "handoff-cancelled" }
  /**
   * `/handoff`: the run goes on in `session`, whose header names `parent`; `draft` was its first
   * prompt and `answer` the model's answer to it.
   */
  | {
      type: "handed-off";
      draft: string;
      goal: string;
      model?: string;
      parent: { id: string; path: string };
      session: { id: string; path: string };
      answer: string;
    }
  /** `/clear`: the run goes on in a new, empty session file. */
  | { type: "session-cleared"; path: string }
  /** `/export`: where the page went. */
  | { type: "exported"; target: string; entries: number }
  /**
   * `/init`: whether the model wrote (or changed) AGENTS.md at `path`; `ignored`: the .gitignore to
   * which `.panto/config.local.json` was added (in a git project that did not ignore it yet).
   */
  | { type: "agents-file"; path: string; existed: boolean; changed: boolean; ignored?: string }
  /** `/rewind`: done (`report`), or with --dry-run what it would do (no `report`: nothing was changed). */
  | { type: "rewound"; prepared: PreparedRewind; report?: RewindReport }
  /** `/rewind` alone where nobody can choose from a list: the points it could go back to. */
  | { type: "rewind-points"; points: readonly RewindPoint[] }
  /** `/fork`: the run goes on in the new session; the old one is unchanged. */
  | { type: "forked"; fork: ForkedSession }
  /**
   * A custom command's prompt was answered: `text` is the model's answer (already streamed to a
   * terminal as it came), `files` what its `@path`s attached.
   */
  | { type: "prompt-answered"; command: string; files: readonly string[]; text: string }
  /** A report that is text through and through (`/context`, `/cost`, `/session`, `/tools`, `/last`, `/mcp`, `/help`). */
  | { type: "info"; topic: string; text: string }
  /** `/exit`: the user asks to leave. */
  | { type: "exit" }
  | ({ type: "failed" } & CommandFailure);

/** A failed outcome. */
export function failed(status: FailureStatus, code: string, message: string): CommandOutcome {
  return { type: "failed", status, code, message };
}

/** A usage mistake (code "usage" unless given): wrong arguments, unknown command or model. */
export function usageError(message: string, code = "usage"): CommandOutcome {
  return failed("usage", code, message);
}

export function info(topic: string, text: string): CommandOutcome {
  return { type: "info", topic, text };
}
