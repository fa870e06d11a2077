import { isPantoError } from "../../core/index.js";
import type { ProbeAnswers } from "../../fidelity/index.js";
import {
  type FidelityFact,
  type FidelityTarget,
  MAX_RECALL_PROBE_REQUESTS,
  probeQuestion,
  probeWithRecall,
} from "../../fidelity/index.js";
import { askProbe, askProbeMessage, type FidelityModels, probeTokens } from "./fidelity-model-calls.js";
import { describePlan, type PlannedRequest } from "./fidelity-plan.js";

export interface ProbeRun {
  baseline: boolean;
  /** Say what will be sent first (a fresh compaction already said it for the whole check). */
  announce: boolean;
  stderr: NodeJS.WritableStream;
  onRequest: () => void;
}

/**
 * Asks the probe once after the compacted context, then after the compacted context with the
 * `recall` tool answered from the session file (as many requests as the model's recall calls take,
 * at most MAX_RECALL_PROBE_REQUESTS), and, with `baseline`, once after the full one.
 * A full context the provider rejects as too large leaves `full` unanswered (null in the report),
 * and says so; any other failure is thrown.
 */
export async function runFidelityProbes(
  target: FidelityTarget,
  facts: readonly FidelityFact[],
  models: FidelityModels,
  run: ProbeRun,
): Promise<ProbeAnswers> {
  const question = probeQuestion(facts);
  const recallQuestion = probeQuestion(facts, { recall: true });
  if (run.announce) {
    const planned: PlannedRequest[] = [
      {
        what: "a probe after the compacted context",
        tokens: probeTokens(models, target.compacted, question),
      },
      {
        what: `a probe after the compacted context with recall (its first request; up to ${MAX_RECALL_PROBE_REQUESTS} while it calls recall)`,
        tokens: probeTokens(models, target.compacted, recallQuestion),
      },
    ];
    if (run.baseline)
      planned.push({
        what: "a probe after the full context",
        tokens: probeTokens(models, target.full, question),
      });
    run.stderr.write(describePlan(planned));
  }
  run.onRequest();
  const answers: ProbeAnswers = { compacted: await askProbe(models, target.compacted, question) };
  const withRecall = await probeWithRecall(target.compacted, recallQuestion, {
    ask: (context) => askProbeMessage(models, context),
    recall: models.recall,
    onRequest: run.onRequest,
  });
  answers.recall = withRecall.answer;
  if (!run.baseline) return answers;
  run.onRequest();
  try {
    answers.full = await askProbe(models, target.full, question);
  } catch (error) {
    if (!isPantoError(error) || error.code !== "context_overflow") throw error;
    run.stderr.write(
      `panto fidelity: the full context does not fit ${models.model}'s window, so it was not probed (answered_full is null): ${error.message}\n`,
    );
  }
  return answers;
}
