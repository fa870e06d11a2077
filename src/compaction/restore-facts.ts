import type { CompactionRecord, RestoredFact, Turn } from "../core/index.js";
import { extractFacts, type Fact } from "./extract-facts.js";

/** Caps on what is restored, so the compaction block cannot balloon. */
export interface RestoreLimits {
  maxFacts: number;
  /** Characters of fact text, all restored facts together. */
  maxChars: number;
}

export const DEFAULT_RESTORE_LIMITS: RestoreLimits = { maxFacts: 12, maxChars: 2000 };

/**
 * The facts (newest first, as {@link extractFacts} gives them) that `summary` does not mention,
 * verbatim, within the caps: a fact counts as mentioned when its normalised text is a substring of
 * the normalised summary (case, runs of whitespace, quotes and backticks and a leading "./" ignored).
 * Facts past a cap are dropped, newest kept.
 */
export function findMissingFacts(
  facts: readonly Fact[],
  summary: string,
  limits: RestoreLimits = DEFAULT_RESTORE_LIMITS,
): RestoredFact[] {
  const haystack = normaliseForMatch(summary);
  const missing: RestoredFact[] = [];
  let chars = 0;
  for (const fact of facts) {
    if (missing.length >= limits.maxFacts) break;
    const needle = normaliseForMatch(fact.text);
    if (needle === "" || haystack.includes(needle)) continue;
    if (chars + fact.text.length > limits.maxChars) continue;
    chars += fact.text.length;
    missing.push({ kind: fact.kind, text: fact.text });
  }
  return missing;
}

/** Lower case, no quotes or backticks, no leading "./", single spaces. */
export function normaliseForMatch(text: string): string {
  return text
    .toLowerCase()
    .replace(/[`'"]/g, "")
    .replace(/(^|\s)\.\//g, "$1")
    .replace(/\s+/g, " ")
    .trim();
}

/**
 * The record with the facts of `summarised` its summary left out, as `restored` (absent when the
 * summary mentions them all). Costs no model call.
 */
export function withRestoredFacts(
  record: CompactionRecord,
  summarised: readonly Turn[],
  limits: RestoreLimits = DEFAULT_RESTORE_LIMITS,
): CompactionRecord {
  const restored = findMissingFacts(extractFacts(summarised), record.summary, limits);
  return restored.length === 0 ? record : { ...record, restored };
}
