import { normaliseForMatch } from "../compaction/normalise-for-match.js";
import type { FidelityFact } from "./fidelity-fact.js";
import { keyTerms, termSet } from "./key-terms.js";

/** The share of an instruction's key terms a text must hold for the instruction to count as stated. */
export const INSTRUCTION_COVERAGE = 2 / 3;

/** A text prepared once for looking many facts up in it. */
export interface FactMatcher {
  states(fact: FidelityFact): boolean;
}

/**
 * Matches facts against `text` the way restored facts are checked: a path, command or error counts
 * as stated when its normalised text (case, runs of whitespace, quotes, backticks and a leading
 * "./" ignored) is a substring of the normalised text. An instruction, which a summary rightly
 * rewords, counts as stated when the text holds at least {@link INSTRUCTION_COVERAGE} of its key
 * terms (see keyTerms), rounded up.
 */
export function factMatcher(text: string): FactMatcher {
  const haystack = normaliseForMatch(text);
  let terms: Set<string> | undefined;
  return {
    states(fact) {
      if (fact.kind !== "instruction") {
        const needle = normaliseForMatch(fact.text);
        return needle !== "" && haystack.includes(needle);
      }
      terms ??= termSet(text);
      const wanted = keyTerms(fact.text);
      const found = wanted.filter((term) => (terms as Set<string>).has(term)).length;
      return wanted.length > 0 && found >= Math.ceil(wanted.length * INSTRUCTION_COVERAGE);
    },
  };
}
