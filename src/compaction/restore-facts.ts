import type { CompactionLedger, CompactionRecord, RestoredFact, Turn } from "../core/index.js";
import { checkClaims } from "./check-claims.js";
import { extractFacts, type Fact } from "./extract-facts.js";
import { DEFAULT_LEDGER_LIMITS, extractLedger, type LedgerLimits } from "./extract-ledger.js";
import { normaliseForMatch } from "./normalise-for-match.js";

/** Caps on what is restored, so the compaction block cannot balloon. */
export interface RestoreLimits {
  maxFacts: number;
  /** Characters of fact text, all restored facts together. */
  maxChars: number;
  ledger: LedgerLimits;
}

export const DEFAULT_RESTORE_LIMITS: RestoreLimits = {
  maxFacts: 12,
  maxChars: 2000,
  ledger: DEFAULT_LEDGER_LIMITS,
};

/**
 * The facts (newest first, as {@link extractFacts} gives them) that `summary` does not mention,
 * verbatim, within the caps: a fact counts as mentioned when its normalised text is a substring of
 * the normalised summary (case, runs of whitespace, quotes and backticks and a leading "./" ignored).
 * Facts past a cap are dropped, newest kept.
 */
export function findMissingFacts(
  facts: readonly Fact[],
  summary: string,
  limits: Pick<RestoreLimits, "maxFacts" | "maxChars"> = DEFAULT_RESTORE_LIMITS,
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

/** What the restored facts of one compaction are drawn from besides its summarised turns. */
export interface RestoreOptions {
  /** The turn number of each summarised turn, when known (the ledger says in which turn). */
  turnNumbers?: readonly (number | undefined)[];
  /** The ledger of the compaction this one replaces: carried on, so it covers every summarised turn. */
  previousLedger?: CompactionLedger;
  limits?: RestoreLimits;
}

/**
 * The record with its restored facts, one mechanism drawn from the tool calls and results of
 * `summarised` and costing no model call: the ledger (files changed, the latest run of each
 * command), the claims of the summary it contradicts (`unverified`), and the paths, commands and
 * errors the summary left out that the ledger does not already carry (`restored`). Each part is
 * absent when empty; the summary itself is never changed.
 */
export function withRestoredFacts(
  record: CompactionRecord,
  summarised: readonly Turn[],
  options: RestoreOptions = {},
): CompactionRecord {
  const limits = options.limits ?? DEFAULT_RESTORE_LIMITS;
  const numbers = options.turnNumbers ?? [];
  const ledger = extractLedger(summarised, numbers, options.previousLedger, limits.ledger);
  const facts = extractFacts(summarised);
  const restored = findMissingFacts(facts, `${record.summary}\n${ledgerText(ledger)}`, limits);
  const readPaths = facts.filter((fact) => fact.kind === "path").map((fact) => fact.text);
  const unverified = checkClaims(record.summary, ledger, readPaths);
  return {
    ...record,
    ...(restored.length === 0 ? {} : { restored }),
    ...(ledger === undefined ? {} : { ledger }),
    ...(unverified.length === 0 ? {} : { unverified }),
  };
}

/** The ledger's paths, commands and error lines, for telling which facts it already carries. */
function ledgerText(ledger: CompactionLedger | undefined): string {
  if (ledger === undefined) return "";
  return [
    ...ledger.files.map((file) => file.path),
    ...ledger.commands.flatMap((command) => [command.command, command.error ?? ""]),
  ].join("\n");
}
