import type { CompactionTrigger } from "../core/index.js";
import { type FactScore, type FidelityTotals, fidelityTotals, type ProbeAnswers } from "./score-fidelity.js";

/** The outcome of one fidelity check. */
export interface FidelityReport {
  /** The session's header id. */
  session: string;
  compaction: { trigger: CompactionTrigger; model: string; fresh: boolean };
  facts: FactScore[];
  totals: FidelityTotals;
  /** Model requests the check made (summary attempts and probes). */
  requests: number;
}

export function buildFidelityReport(
  session: string,
  compaction: FidelityReport["compaction"],
  facts: FactScore[],
  answers: ProbeAnswers,
  requests: number,
): FidelityReport {
  return { session, compaction, facts, totals: fidelityTotals(facts, answers), requests };
}

/** The report as the one `--json` object, its field names snake_case and stable. */
export function fidelityJson(report: FidelityReport): Record<string, unknown> {
  const { totals } = report;
  return {
    type: "fidelity",
    session: report.session,
    compaction: { ...report.compaction },
    facts: report.facts.map((fact) => ({
      kind: fact.kind,
      text: fact.text,
      in_summary: fact.inSummary,
      in_block: fact.inBlock,
      answered: fact.answered,
      answered_recall: fact.answeredRecall,
      answered_full: fact.answeredFull,
    })),
    totals: {
      facts: totals.facts,
      in_summary: totals.inSummary,
      in_block: totals.inBlock,
      answered: totals.answered,
      answered_recall: totals.answeredRecall,
      answered_full: totals.answeredFull,
    },
    requests: report.requests,
  };
}
