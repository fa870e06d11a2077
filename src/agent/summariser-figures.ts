import { estimateMessageTokens, estimateTokens, type SummariserFigures } from "../compaction/index.js";
import type { EffectiveContext, LearnedWindow } from "../core/index.js";

/**
 * What the provider's own figures say about `model`, the model a summary is asked of first: the
 * window an overflow stated for it, and the smallest ratio of its count to panto's estimate of the
 * same request among those it gave (the trusted size of that overflow, and each prompt size it
 * reported for the context as it is). Undefined without a window or without any ratio: then nothing
 * proves a summary request too large before it is sent (issue 33).
 */
export function summariserFigures(
  model: string,
  window: LearnedWindow | undefined,
  context: EffectiveContext,
  overheadTokens: number,
  copiedMessages: number,
): SummariserFigures | undefined {
  if (window === undefined) return undefined;
  const ratios = usageRatios(model, context, overheadTokens, copiedMessages);
  const { requestTokens, estimatedTokens } = window;
  if (requestTokens !== undefined && estimatedTokens !== undefined && estimatedTokens > 0)
    ratios.push(requestTokens / estimatedTokens);
  if (ratios.length === 0) return undefined;
  return { model, contextWindow: window.contextWindow, leastRatio: Math.min(...ratios) };
}

/**
 * Each answer from `model` in the context: its reported prompt over panto's estimate of what that
 * prompt held (the fixed overhead, the summary, the messages before it). Failed answers and kept
 * copies (their usage is of a longer, older context) are passed over.
 */
function usageRatios(
  model: string,
  context: EffectiveContext,
  overheadTokens: number,
  copiedMessages: number,
): number[] {
  const ratios: number[] = [];
  let prefix =
    overheadTokens + (context.compaction === undefined ? 0 : estimateTokens(context.compaction.summary));
  context.messages.forEach((message, index) => {
    if (message.role === "assistant" && message.usage !== undefined && index >= copiedMessages) {
      const failed = message.stopReason === "error" || message.stopReason === "aborted";
      const prompt = message.usage.promptTokens;
      if (!failed && prompt > 0 && prefix > 0 && `${message.provider}/${message.model}` === model)
        ratios.push(prompt / prefix);
    }
    prefix += estimateMessageTokens(message);
  });
  return ratios;
}
