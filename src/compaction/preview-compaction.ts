import type { EffectiveContext, SizedTurn, SizeSource } from "../core/index.js";
import { buildCompactionRequest } from "./build-compaction-request.js";
import { estimateTokens } from "./estimate-tokens.js";
import { groupTurns } from "./group-turns.js";
import { planRetention } from "./plan-retention.js";
import { serializeTranscript } from "./serialize-transcript.js";
import { sizeTurns } from "./size-turns.js";

/** One turn of a preview: what a compaction now would do with it, and its size. */
export interface PreviewTurn {
  /** 1-based position in the effective context. */
  position: number;
  action: "summarise" | "keep";
  /** The start of the turn's user message (empty for a turn without one). */
  userText: string;
  tokens: number;
  source: SizeSource;
}

/** The plan a manual compaction would follow now, with no model call. */
export interface CompactionPreview {
  turns: PreviewTurn[];
  turnsSummarised: number;
  turnsKept: number;
  tokensSummarised: number;
  tokensKept: number;
  sizeSources: { usage: number; estimate: number };
  /** "provider/model" that would write the summary. */
  model: string;
  /** The model asked once more if `model` fails (the active model), when it differs. */
  fallbackModel?: string;
  /** Estimated size of the summary request (system prompt plus transcript envelope); 0 when nothing would be summarised. */
  requestTokens: number;
  instructions?: string;
  /** Why nothing would be summarised, when nothing would. */
  nothingReason?: string;
}

export interface PreviewCompactionInput {
  /** The effective context, its block holding the previous summary (without pinned notes) if any. */
  context: EffectiveContext;
  budgetTokens: number;
  /** The compaction system prompt the request would carry. */
  systemPrompt: string;
  instructions?: string;
  /** `/compact --preview --force`: plan as a forced compaction would. */
  force?: boolean;
  activeModel: string;
  compactionModel?: string;
}

const USER_TEXT_CHARS = 60;

/**
 * Plans a manual compaction exactly as `/compact` would (same grouping, sizing and retention) and
 * measures the summary request it would send, without sending anything.
 */
export function previewCompaction(input: PreviewCompactionInput): CompactionPreview {
  const sized = sizeTurns(groupTurns(input.context.messages));
  const plan = planRetention(sized, {
    budgetTokens: input.budgetTokens,
    lastTurnInFlight: false,
    ...(input.force === true ? { force: true } : {}),
  });
  const summarised = new Set(plan.summarise);
  const model = input.compactionModel ?? input.activeModel;
  const instructions = input.instructions?.trim() ?? "";
  const preview: CompactionPreview = {
    turns: sized.map((turn, index) => previewTurn(turn, index, summarised.has(turn))),
    turnsSummarised: plan.summarise.length,
    turnsKept: plan.keep.length,
    tokensSummarised: plan.summarisedTokens,
    tokensKept: plan.keptTokens,
    sizeSources: {
      usage: sized.filter((turn) => turn.source === "usage").length,
      estimate: sized.filter((turn) => turn.source === "estimate").length,
    },
    model,
    requestTokens: plan.summarise.length === 0 ? 0 : requestTokens(plan.summarise, input, instructions),
  };
  if (model !== input.activeModel) preview.fallbackModel = input.activeModel;
  if (instructions !== "") preview.instructions = instructions;
  if (plan.summarise.length === 0)
    preview.nothingReason =
      sized.length === 0
        ? "the conversation is empty"
        : input.force === true
          ? "nothing older than the latest turn"
          : `the whole conversation (about ${plan.keptTokens} tokens) fits the keep-verbatim budget of ${input.budgetTokens} tokens`;
  return preview;
}

function previewTurn(turn: SizedTurn, index: number, summarise: boolean): PreviewTurn {
  const first = turn.messages[0];
  const text =
    first?.role === "user"
      ? first.content
          .filter((block) => block.type === "text")
          .map((block) => block.text)
          .join(" ")
      : "";
  const flat = text.replace(/\s+/g, " ").trim();
  return {
    position: index + 1,
    action: summarise ? "summarise" : "keep",
    userText: flat.length <= USER_TEXT_CHARS ? flat : `${flat.slice(0, USER_TEXT_CHARS - 1)}…`,
    tokens: turn.tokens,
    source: turn.source,
  };
}

function requestTokens(
  turns: readonly SizedTurn[],
  input: PreviewCompactionInput,
  instructions: string,
): number {
  const request = buildCompactionRequest({
    systemPrompt: input.systemPrompt,
    transcript: serializeTranscript(turns.flatMap((turn) => turn.messages)),
    ...(instructions === "" ? {} : { instructions }),
    ...(input.context.compaction === undefined ? {} : { previousSummary: input.context.compaction.summary }),
  });
  return estimateTokens(request.systemPrompt) + estimateTokens(request.userPrompt);
}
