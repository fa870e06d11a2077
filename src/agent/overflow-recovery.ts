import type { CompactionOutcome } from "../compaction/index.js";
import { PantoError } from "../core/index.js";
import type { Session } from "../session/index.js";
import { latestAcceptedRequest, trustedInputTokens } from "./provider-figures.js";
import {
  floorOf,
  refuseBeforeCompaction,
  refuseNothingRemovable,
  refuseRetry,
  statedWindow,
  tooLargeAfterRetry,
} from "./provider-refusals.js";
import { estimateRequestTokens, type FitCheck, learnFromOverflow, onlyTurnInFlight } from "./window-guard.js";

/** What recovering from an overflow needs of the agent. */
export interface RecoveryDeps {
  session: Session;
  /** The recovery's input as it is now (the context changes when a compaction is written). */
  fitCheck(): FitCheck;
  /** Runs one compaction with trigger "overflow", the turn in flight kept verbatim. */
  compact(overflow: PantoError): Promise<CompactionOutcome>;
  /** Undoes the compaction in effect. */
  uncompact(): Promise<unknown>;
}

/** Records the window an overflow error stated, for the active model, in the session. */
export async function learnWindow(deps: RecoveryDeps, error: PantoError): Promise<void> {
  const { model, overheadTokens, overheadBound, context } = deps.fitCheck();
  const accepted = latestAcceptedRequest(deps.session.activeEntries(), model);
  const trusted = trustedInputTokens(error, overheadBound, context, accepted);
  const window = learnFromOverflow(error, estimateRequestTokens(overheadTokens, context), trusted);
  if (window !== undefined) await deps.session.appendWindow(model, window);
}

/**
 * Compacts with the turn in flight kept verbatim, so the caller can retry once. Throws instead only
 * where the provider's figures show that compaction cannot make the retry fit, where there is
 * nothing older than the turn in flight to summarise (no model call), and when the compaction fails.
 */
export async function recoverFromOverflow(deps: RecoveryDeps, overflow: PantoError): Promise<void> {
  const check = deps.fitCheck();
  const accepted = latestAcceptedRequest(deps.session.activeEntries(), check.model);
  const refusal = refuseBeforeCompaction(check, overflow, accepted);
  if (refusal !== undefined) throw refusal;
  const floor = floorOf(check, overflow, accepted);
  const outcome = await deps.compact(overflow);
  if (outcome.type === "compacted") {
    const window = statedWindow(overflow, deps.fitCheck().window);
    const retry = refuseRetry(check.model, floor, window, outcome.record.usage);
    if (retry !== undefined) throw retry;
    return;
  }
  if (outcome.type === "nothing-to-summarise") {
    if (onlyTurnInFlight(check.context)) throw refuseNothingRemovable(check, overflow);
    throw new PantoError(
      "context_overflow",
      `${overflow.message} (compaction cannot help: ${outcome.reason})`,
      { cause: overflow },
    );
  }
  if (outcome.error.code === "aborted") throw outcome.error;
  throw new PantoError(
    "context_overflow",
    `${overflow.message} (compaction failed: ${outcome.error.message})`,
    { cause: overflow },
  );
}

/**
 * The retry after an overflow compaction overflowed too. When the turn in flight is what does not
 * fit (nothing but it was left beside the summary, or the retry's own figures say so), the
 * compaction did nothing useful: it is undone, and the error says the message itself is too large.
 * Otherwise the provider's error stands.
 */
export async function afterFailedRetry(deps: RecoveryDeps, error: PantoError): Promise<PantoError> {
  if (deps.session.activeCompaction()?.trigger !== "overflow") return error;
  const tooLarge = tooLargeAfterRetry(deps.fitCheck(), error);
  if (tooLarge === undefined) return error;
  await deps.uncompact();
  return tooLarge;
}
