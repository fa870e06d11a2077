/**
 * What started a compaction: context overflow recovery, a manual `/compact`, `/summary edit` (a
 * copy of the compaction in effect with the user's summary text; no model call), or "cold-cache":
 * the first request after the prompt cache went cold, with the context past config
 * `compact_when_cold`.
 */
export type CompactionTrigger = "overflow" | "manual" | "edited" | "cold-cache";

/** A trigger as scripts and editors see it (`--json`, hooks, ACP's `_meta`): snake_case, so "cold_cache". */
export function triggerName(trigger: CompactionTrigger): string {
  return trigger.replace("-", "_");
}

import type { FlaggedTodoItem } from "./todo-item.js";
import type { Usage } from "./usage.js";

/** One summary request's usage, as its provider reported it. */
export interface SummaryRequestUsage extends Usage {
  /** "provider/model" asked. */
  model: string;
}

/**
 * Why a summary was written in chained chunks rather than in one request. Only the provider's own
 * figures decide it (issue 33): the whole transcript is sent first, and cut up front only when the
 * provider's figures already prove it cannot fit.
 */
export type SummaryChunking =
  | {
      /** The whole transcript was sent and the provider rejected it as too large. */
      reason: "rejected_whole";
      /** "provider/model" whose rejection sized the chunks. */
      model: string;
      /** The rejected request's size and the window, as the provider stated them (when it did). */
      requestTokens?: number;
      contextWindow?: number;
      /** Summary requests sent in all, rejected ones included. */
      requests: number;
    }
  | {
      /** The provider's own figures proved the whole transcript over the window, so it was never sent. */
      reason: "cut_up_front";
      model: string;
      /** The model's context window, as its provider stated it. */
      contextWindow: number;
      /** panto's estimate of the whole summary request. */
      estimatedTokens: number;
      /** The smallest ratio of the provider's count to panto's estimate seen for the model. */
      ratio: number;
      /** The least the provider could count for the whole request: `estimatedTokens` times `ratio`. */
      leastTokens: number;
      requests: number;
    };

/** A concrete fact the summary left out, restored verbatim from the summarised turns. */
export interface RestoredFact {
  /** "task": the headline of a `task` tool's report, naming the child's session. */
  kind: "path" | "command" | "error" | "task";
  text: string;
}

/**
 * Which turns of the session a compaction covers, by turn number (the 1-based count of the user
 * messages of the session file, kept copies not counted; see src/session/turn-numbers.ts).
 */
export interface CompactionTurns {
  /** The block stands for turns 1 to `through`: the last turn it summarised. */
  through: number;
  /** The numbers of the turns copied verbatim after the block (the turn in flight included), in order. */
  kept: number[];
  /** How many turns the session file held when the compaction was written. */
  total: number;
}

/** How a tool call changed a file: `write` created or overwrote it, `edit` edited it, `rm` deleted it. */
export type FileChange = "created" | "written" | "edited" | "deleted";

/** A file the summarised turns changed, each change with its turn, newest first. */
export interface LedgerFile {
  path: string;
  changes: Array<{ change: FileChange; turn?: number }>;
}

/** The latest run of one distinct command `bash` ran in the summarised turns. */
export interface LedgerCommand {
  command: string;
  turn?: number;
  /** The exit status; null when the command was killed, timed out or interrupted. */
  exitCode: number | null;
  /** How it ended, as the bash tool said: "exit 0", "timed out", "killed by SIGTERM", ... */
  ending: string;
  /** When it failed: the first line of its output that reads as an error (at most 200 characters). */
  error?: string;
}

/**
 * The record of the summarised turns drawn from their tool calls and results, never from the
 * summary: each file changed and the latest run of each command, newest first and capped. A
 * compaction's ledger also carries the one of the compaction it replaces, so it covers every
 * summarised turn.
 */
export interface CompactionLedger {
  files: LedgerFile[];
  commands: LedgerCommand[];
  /** Files and commands left out by the caps. */
  moreFiles?: number;
  moreCommands?: number;
}

/** A claim of the summary the ledger contradicts, quoted with the evidence. */
export interface UnverifiedClaim {
  /** The summary's sentence, verbatim (at most 200 characters). */
  claim: string;
  /** What the ledger shows instead. */
  evidence: string;
}

/**
 * Everything a compaction entry records besides its id and timestamp: the summary that becomes the
 * compaction block, and the facts a user or a script needs to see what happened.
 */
export interface CompactionRecord {
  summary: string;
  trigger: CompactionTrigger;
  /** "provider/model" that wrote the summary. */
  model: string;
  /** True when the configured compaction_model failed and the active model wrote the summary. */
  fellBack: boolean;
  /** Trigger "edited": the id of the compaction entry whose summary the user replaced. */
  editedFrom?: string;
  /** `/compact` arguments, if any. */
  instructions?: string;
  turnsSummarised: number;
  /** Turns copied verbatim after the block, the turn in flight included. */
  turnsKept: number;
  /** Size estimates (tokens) of the summarised prefix and the kept suffix. */
  tokensSummarised: number;
  tokensKept: number;
  /** Estimated size of the summary itself. */
  summaryTokens: number;
  /**
   * Provider tokens per estimated token of the request before the compaction (from its usage):
   * until a request after the compaction reports usage, the next request's size shown is the
   * estimate scaled by it, so a before/after pair is measured one way. Display only; absent when
   * no usage measured the context before.
   */
  sizeScale?: number;
  /**
   * How many chained summary requests wrote the summary, when the prefix was too large to summarise
   * in one (each chunk's summary was the next one's previous summary). Absent for a single request.
   */
  chunks?: number;
  /** Why the summary was written in chunks, with the figures that decided it. Present with `chunks`. */
  chunking?: SummaryChunking;
  /** How many of the sized turns took their size from provider usage, and how many from the local estimate. */
  sizeSources: { usage: number; estimate: number };
  /**
   * Facts of the summarised turns the summary did not mention, appended verbatim to the compaction
   * block under a fixed heading (newest first, capped). Absent when none were missing or the check is off.
   */
  restored?: RestoredFact[];
  /** Which turns the block stands for. Absent on compactions written before turns were numbered. */
  turns?: CompactionTurns;
  /** Files changed and commands run in the summarised turns (part of the restored facts). Absent when none, or the check is off. */
  ledger?: CompactionLedger;
  /** Claims of the summary the ledger contradicts (part of the restored facts). Absent when none. */
  unverified?: UnverifiedClaim[];
  /**
   * Skills loaded (with the `skill` tool) in the summarised turns or named by the compaction this one
   * replaced: listed in the compaction block so the model knows to load one again. Absent when none.
   */
  skills?: string[];
  /**
   * The task list in force when the compaction was written (the latest successful `todo` call's, or
   * the one the compaction before carried), with the flags the ledger gave its items then: a fixed
   * section of the block, so the model after the compaction sees the list it had. Absent when there
   * was none.
   */
  todos?: FlaggedTodoItem[];
  /**
   * What the summary requests cost, one item per request that reported usage (chunks and a
   * fallback each count), so `/cost` can total compaction apart. Absent when none reported any.
   */
  usage?: SummaryRequestUsage[];
}
