import { assistantText, summaryRequester } from "../../agent/index.js";
import {
  type CompactionPreview,
  compactionTurns,
  numberTurns,
  previewCompaction,
  runCompaction,
  withPinnedNotes,
  withRestoredFacts,
} from "../../compaction/index.js";
import {
  type AssistantMessage,
  type EffectiveContext,
  type ModelClient,
  optional,
  PantoError,
  type ToolDefinition,
} from "../../core/index.js";
import {
  estimateProbeTokens,
  type FidelityTarget,
  freshTarget,
  probeContext,
  type SummariserView,
} from "../../fidelity/index.js";

/** What the model calls of one check need. */
export interface FidelityModels {
  /** "provider/model" that answers probes and is the active model of a fresh compaction. */
  model: string;
  createClient: (modelId: string) => ModelClient;
  /** The agent's system prompt and tools, as the next request would carry them. */
  systemPrompt: string;
  tools: ToolDefinition[];
  maxOutputTokens: number;
  /** Runs one `recall` call on the checked session (read-only; its answer redacted). */
  recall: (args: Record<string, unknown>) => Promise<{ text: string; isError: boolean }>;
}

/** How a fresh compaction is made: the prompt, the summariser and the rules the config sets. */
export interface FreshSettings {
  compactionPrompt: string;
  compactionModel?: string;
  budgetTokens: number;
  restoreFacts: boolean;
}

/** A compaction of `view` as `/compact` would plan it now, with no model call. */
export function previewFresh(
  view: SummariserView,
  settings: FreshSettings,
  model: string,
): CompactionPreview {
  return previewCompaction({
    context: view.context,
    budgetTokens: settings.budgetTokens,
    systemPrompt: withPinnedNotes(settings.compactionPrompt, view.pins),
    activeModel: model,
    ...optional("compactionModel", settings.compactionModel),
  });
}

/**
 * Makes the compaction `/compact` would make now (same planning, prompt, summariser and fallback,
 * facts restored unless the config turns that off) and returns it as a target, written nowhere.
 * Throws the compaction's error when every attempt failed. `onRequest` hears each summary request.
 */
export async function compactFresh(
  view: SummariserView,
  settings: FreshSettings,
  models: FidelityModels,
  onRequest: () => void,
): Promise<FidelityTarget> {
  const outcome = await runCompaction({
    context: view.context,
    trigger: "manual",
    lastTurnInFlight: false,
    budgetTokens: settings.budgetTokens,
    systemPrompt: withPinnedNotes(settings.compactionPrompt, view.pins),
    activeModel: models.model,
    ...optional("compactionModel", settings.compactionModel),
    summarise: summaryRequester(models.createClient),
    onEvent: (event) => {
      if (event.type === "compaction-attempt") onRequest();
    },
  });
  if (outcome.type === "nothing-to-summarise")
    throw new PantoError("invalid_request", `nothing to compact: ${outcome.reason}`);
  if (outcome.type === "failed") throw outcome.error;
  const turns = view.numbering === undefined ? undefined : compactionTurns(outcome.plan, view.numbering);
  const numbered = { ...outcome.record, ...optional("turns", turns) };
  const record = settings.restoreFacts
    ? withRestoredFacts(numbered, outcome.plan.summarise, {
        turnNumbers:
          view.numbering === undefined ? [] : numberTurns(outcome.plan.summarise, view.numbering.numbers),
        ...optional("previousLedger", view.previousLedger),
      })
    : numbered;
  return freshTarget(view, record, outcome.plan.summarise, outcome.kept);
}

/** The size of one probe request after `context`, by the local estimate. */
export function probeTokens(models: FidelityModels, context: EffectiveContext, question: string): number {
  return estimateProbeTokens(models.systemPrompt, models.tools, probeContext(context, question));
}

/** Asks the probe after `context` in one request; the answer's text. */
export async function askProbe(
  models: FidelityModels,
  context: EffectiveContext,
  question: string,
): Promise<string> {
  return assistantText(await askProbeMessage(models, probeContext(context, question)));
}

/** One probe request after `context` (the question already in it), as the next request would be sent. */
export function askProbeMessage(
  models: FidelityModels,
  context: EffectiveContext,
): Promise<AssistantMessage> {
  return models.createClient(models.model).stream({
    systemPrompt: models.systemPrompt,
    context,
    tools: models.tools,
    maxOutputTokens: models.maxOutputTokens,
  });
}
