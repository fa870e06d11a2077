import { isPantoError } from "../../core/index.js";
import type { ProbeAnswers } from "../../fidelity/index.js";
import { type FidelityFact, type FidelityTarget, probeQuestion } from "../../fidelity/index.js";
import { askProbe, type FidelityModels, probeTokens } from "./fidelity-model-calls.js";
import { describePlan, type PlannedRequest } from "./fidelity-plan.js";

export interface ProbeRun {
  baseline: boolean;
  /** Say what will be sent first (a fresh compaction already said it for the whole check). */
  announce: boolean;
  stderr: NodeJS.WritableStream;
  onRequest: () => void;
}

/**
 * Asks the probe once after the compacted context and, with `baseline`, once after the full one.
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
  if (run.announce) {
    const planned: PlannedRequest[] = [
      {
        what: "a probe after the compacted context",
        tokens: probeTokens(models, target.compacted, question),
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
