export { readSessionSnapshot, type SessionSnapshot } from "../session/index.js";
export { extractFidelityFacts } from "./extract-fidelity-facts.js";
export { extractInstructions, INSTRUCTION_CHARS } from "./extract-instructions.js";
export { type FactMatcher, factMatcher, INSTRUCTION_COVERAGE } from "./fact-matcher.js";
export { FIDELITY_FACT_KINDS, type FidelityFact, type FidelityFactKind } from "./fidelity-fact.js";
export { buildFidelityReport, type FidelityReport, fidelityJson } from "./fidelity-report.js";
export {
  compactionInEffect,
  type FidelityTarget,
  freshTarget,
  type SummariserView,
  summariserView,
} from "./fidelity-target.js";
export { formatFidelityReport } from "./format-fidelity-report.js";
export { keyTerms } from "./key-terms.js";
export { estimateProbeTokens, probeContext } from "./probe-context.js";
export { probeQuestion } from "./probe-question.js";
export { MAX_RECALL_PROBE_REQUESTS, probeWithRecall, type RecallProbeDeps } from "./probe-with-recall.js";
export {
  type FactScore,
  type FidelityTotals,
  fidelityTotals,
  type ProbeAnswers,
  scoreFidelity,
} from "./score-fidelity.js";
