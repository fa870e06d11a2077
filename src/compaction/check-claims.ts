import type { CompactionLedger, LedgerCommand, UnverifiedClaim } from "../core/index.js";
import { ledgerPathKey } from "./extract-ledger.js";
import { normaliseForMatch } from "./normalise-for-match.js";

/** At most this many "Unverified:" lines per block. */
export const MAX_UNVERIFIED = 3;
/** A quoted claim: at most this many characters. */
const CLAIM_CHARS = 200;

/** A sentence that says something passed, was fixed, is done or works. */
const SUCCESS =
  /\b(pass|passes|passed|passing|green|succeeds?|succeeded|successful(ly)?|fixed|resolved|done|complete|completed|works|working|clean)\b/i;
/**
 * Hedged, negated or mixed sentences are never checked: only a plain statement of success is a
 * claim the ledger can contradict.
 */
const HEDGE =
  /\b(not|no|never|none|fail\w*|errors?|broken|still|yet|except|but|although|though|however|unless|until|todo|pending|should|will|would|might|may|could|need\w*|must|if|once|when|before|expect\w*|hope\w*|try|tried)\b|n't\b/i;
const ABOUT_TESTS = /\b(tests?|specs?|suites?)\b/i;
const TEST_COMMAND = /(^|[\s/:._-])(test|tests|vitest|jest|pytest|mocha|rspec|phpunit|ctest)([\s:._-]|$)/i;
const ABOUT_BUILD = /\b(build|builds|built|compiles?|compiled|type-?checks?|lint|lints|linted)\b/i;
const BUILD_COMMAND =
  /(^|[\s/:._-])(build|tsc|compile|make|lint|check|biome|eslint|cargo\s+build)([\s:._-]|$)/i;
const CHANGED =
  /\b(created|wrote|written|edited|updated|modified|changed|added|deleted|removed|fixed|rewrote)\b/i;
/** A token that reads as a file path: it holds a "/" or ends in a short extension. */
const PATH_TOKEN = /(?:[\w.@-]+\/)+[\w.@-]+|[\w@-]+(?:\.[\w-]+)*\.[A-Za-z][\w]{0,5}\b/g;

/**
 * The claims of `summary` that the ledger contradicts. Conservative by design: a sentence is a
 * claim only when it states success plainly (a success word such as "pass", "fixed", "done",
 * "works", and no negation, hedge or failure word); it is checked against
 * - a command it names (the command's normalised text appears in it): that command's latest run failed;
 * - else, when it speaks of tests (or of the build, compiling, type-checking, linting), the latest
 *   run among the ledger's test commands (or build commands): that run failed;
 * and a plain statement of change is checked against
 * - a file path it names with a change word ("created", "edited", "fixed", ...), when the
 *   summarised turns read that path but no write, edit or deletion of it is on record and no
 *   command mentions it (a command may have changed it).
 * The summary itself is never changed; each finding quotes the sentence and the evidence.
 */
export function checkClaims(
  summary: string,
  ledger: CompactionLedger | undefined,
  readPaths: readonly string[],
): UnverifiedClaim[] {
  const found: UnverifiedClaim[] = [];
  for (const sentence of sentences(summary)) {
    if (found.length >= MAX_UNVERIFIED) break;
    if (HEDGE.test(sentence)) continue;
    const evidence =
      (SUCCESS.test(sentence) ? commandEvidence(sentence, ledger?.commands ?? []) : undefined) ??
      (CHANGED.test(sentence) ? fileEvidence(sentence, ledger, readPaths) : undefined);
    if (evidence !== undefined) found.push({ claim: clip(sentence), evidence });
  }
  return found;
}

/** The summary's sentences and list items, each on one line. */
function sentences(summary: string): string[] {
  return summary
    .split(/\n+|(?<=[.!?])\s+(?=[A-Z`"'*(])/)
    .map((part) => part.replace(/^[\s>*+-]*(\d+[.)]\s+)?/, "").trim())
    .filter((part) => part !== "");
}

function commandEvidence(sentence: string, commands: readonly LedgerCommand[]): string | undefined {
  const text = normaliseForMatch(sentence);
  const named = commands.filter((command) => text.includes(normaliseForMatch(command.command)));
  if (named.length > 0) {
    const failed = named.find((command) => command.exitCode !== 0);
    return failed === undefined ? undefined : failedRun(failed);
  }
  const family = ABOUT_TESTS.test(sentence)
    ? TEST_COMMAND
    : ABOUT_BUILD.test(sentence)
      ? BUILD_COMMAND
      : undefined;
  if (family === undefined) return undefined;
  // The ledger lists commands newest first: the first of the family is its latest run.
  const latest = commands.find((command) => family.test(command.command));
  return latest === undefined || latest.exitCode === 0 ? undefined : failedRun(latest);
}

function failedRun(command: LedgerCommand): string {
  const turn = command.turn === undefined ? "" : ` (turn ${command.turn})`;
  const ended = command.exitCode === null ? command.ending : `exited ${command.exitCode}`;
  const error = command.error === undefined ? "" : `: "${command.error}"`;
  return `the latest run of \`${command.command}\`${turn} ${ended}${error}`;
}

function fileEvidence(
  sentence: string,
  ledger: CompactionLedger | undefined,
  readPaths: readonly string[],
): string | undefined {
  const changed = (ledger?.files ?? []).map((file) => ledgerPathKey(file.path));
  const commands = (ledger?.commands ?? []).map((command) => command.command);
  for (const token of sentence.match(PATH_TOKEN) ?? []) {
    const path = ledgerPathKey(token);
    if (!readPaths.some((read) => samePath(ledgerPathKey(read), path))) continue;
    if (changed.some((file) => samePath(file, path))) continue;
    if (commands.some((command) => command.includes(path))) continue;
    return `${token} was read in the summarised turns, but no write, edit or deletion of it is on record`;
  }
  return undefined;
}

/** The same file, as far as the text can tell: equal, or one ends with "/" and the other. */
function samePath(a: string, b: string): boolean {
  return a === b || a.endsWith(`/${b}`) || b.endsWith(`/${a}`);
}

function clip(text: string): string {
  return text.length <= CLAIM_CHARS ? text : `${text.slice(0, CLAIM_CHARS - 1)}…`;
}
