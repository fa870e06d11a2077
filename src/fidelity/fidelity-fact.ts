/** What kind of fact a fidelity check measures: the restored kinds, plus the user's instructions. */
export type FidelityFactKind = "path" | "command" | "error" | "instruction";

/** One fact of the summarised turns, as the check states it. */
export interface FidelityFact {
  kind: FidelityFactKind;
  text: string;
}

/** The kinds in the order the report lists them. */
export const FIDELITY_FACT_KINDS: readonly FidelityFactKind[] = ["path", "command", "error", "instruction"];
