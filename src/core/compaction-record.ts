/**
 * What started a compaction: context overflow recovery, a manual `/compact`, or `/summary edit`
 * (a copy of the compaction in effect with the user's summary text; no model call).
 */
export type CompactionTrigger = "overflow" | "manual" | "edited";

import type { Usage } from "./usage.js";

/** One summary request's usage, as its provider reported it. */
export interface SummaryRequestUsage extends Usage {
  /** "provider/model" asked. */
  model: string;
}

/** A concrete fact the summary left out, restored verbatim from the summarised turns. */
export interface RestoredFact {
  kind: "path" | "command" | "error";
  text: string;
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
   * How many chained summary requests wrote the summary, when the prefix was too large to summarise
   * in one (each chunk's summary was the next one's previous summary). Absent for a single request.
   */
  chunks?: number;
  /** How many of the sized turns took their size from provider usage, and how many from the local estimate. */
  sizeSources: { usage: number; estimate: number };
  /**
   * Facts of the summarised turns the summary did not mention, appended verbatim to the compaction
   * block under a fixed heading (newest first, capped). Absent when none were missing or the check is off.
   */
  restored?: RestoredFact[];
  /**
   * Skills loaded (with the `skill` tool) in the summarised turns or named by the compaction this one
   * replaced: listed in the compaction block so the model knows to load one again. Absent when none.
   */
  skills?: string[];
  /**
   * What the summary requests cost, one item per request that reported usage (chunks and a
   * fallback each count), so `/cost` can total compaction apart. Absent when none reported any.
   */
  usage?: SummaryRequestUsage[];
}
