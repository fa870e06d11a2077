import type { FidelityTarget, SessionSnapshot } from "../../fidelity/index.js";
import {
  FIDELITY_FACT_KINDS,
  MAX_RECALL_PROBE_REQUESTS,
  probeQuestion,
  summariserView,
} from "../../fidelity/index.js";
import { UsageError } from "../../runtime/setup/setup-errors.js";
import {
  compactFresh,
  type FidelityModels,
  type FreshSettings,
  previewFresh,
  probeTokens,
} from "./fidelity-model-calls.js";
import { describePlan, type PlannedRequest } from "./fidelity-plan.js";

export interface FreshRun {
  probe: boolean;
  baseline: boolean;
  stderr: NodeJS.WritableStream;
  onRequest: () => void;
}

/**
 * `--fresh`: plans the compaction `/compact` would make now, says what the whole check will send
 * (summary and probes) before any model call, then makes the compaction, written nowhere. Nothing
 * to summarise is a UsageError.
 */
export async function freshCompaction(
  snapshot: SessionSnapshot,
  settings: FreshSettings,
  models: FidelityModels,
  run: FreshRun,
): Promise<FidelityTarget> {
  const view = summariserView(snapshot.entries);
  const preview = previewFresh(view, settings, models.model);
  if (preview.nothingReason !== undefined)
    throw new UsageError(`--fresh: nothing to compact (${preview.nothingReason})`, "session");
  const question = probeQuestion(FIDELITY_FACT_KINDS.map((kind) => ({ kind, text: "" })));
  const planned: PlannedRequest[] = [
    {
      what: `the summary, by ${preview.model}${preview.fallbackModel === undefined ? "" : ` (${preview.fallbackModel} once more if it fails)`}`,
      tokens: preview.requestTokens,
    },
  ];
  if (run.probe)
    planned.push(
      {
        what: "a probe after the compacted context (plus the summary's own size)",
        tokens: probeTokens(models, { messages: [] }, question) + preview.tokensKept,
      },
      {
        what: `a probe after it with recall (its first request, plus the summary's size; up to ${MAX_RECALL_PROBE_REQUESTS} while it calls recall)`,
        tokens: probeTokens(models, { messages: [] }, question) + preview.tokensKept,
      },
    );
  if (run.baseline)
    planned.push({
      what: "a probe after the full context",
      tokens: probeTokens(models, view.current, question),
    });
  run.stderr.write(describePlan(planned));
  return compactFresh(view, settings, models, run.onRequest);
}
