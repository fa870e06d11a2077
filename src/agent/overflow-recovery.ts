import type { CompactionOutcome } from "../compaction/index.js";
import { optional, PantoError } from "../core/index.js";
import type { Session } from "../session/index.js";
import { MessageTooLargeError, messageTooLarge } from "./message-too-large.js";
import {
  estimateRequestTokens,
  type FitCheck,
  inFlightEstimate,
  inFlightMisfit,
  learnFromOverflow,
  onlyTurnInFlight,
  predictProviderTokens,
  retryMisfit,
} from "./window-guard.js";

/** What recovering from an overflow needs of the agent. */
export interface RecoveryDeps {
  session: Session;
  /** The window checks' input as it is now (the context changes when a compaction is written). */
  fitCheck(): FitCheck;
  /** Runs one compaction with trigger "overflow", the turn in flight kept verbatim. */
  compact(overflow: PantoError): Promise<CompactionOutcome>;
  /** Undoes the compaction in effect. */
  uncompact(): Promise<unknown>;
}

/** Records the window an overflow error stated, for the active model, in the session. */
export async function learnWindow(deps: RecoveryDeps, error: PantoError): Promise<void> {
  const { model, overheadTokens, context } = deps.fitCheck();
  const window = learnFromOverflow(error, estimateRequestTokens(overheadTokens, context));
  if (window !== undefined) await deps.session.appendWindow(model, window);
}

/** Compacts with the turn in flight kept verbatim; throws the overflow when compaction cannot help. */
export async function recoverFromOverflow(deps: RecoveryDeps, overflow: PantoError): Promise<void> {
  const misfit = inFlightMisfit(deps.fitCheck());
  if (misfit !== undefined) throw misfit;
  const outcome = await deps.compact(overflow);
  if (outcome.type === "compacted") {
    const retry = retryMisfit(deps.fitCheck());
    if (retry !== undefined) throw retry;
    return;
  }
  if (outcome.type === "nothing-to-summarise") {
    const check = deps.fitCheck();
    if (onlyTurnInFlight(check.context)) throw messageTooLargeNow(check, "untouched", overflow);
    throw new PantoError(
      "context_overflow",
      `${overflow.message} (compaction cannot help: ${outcome.reason})`,
      {
        cause: overflow,
      },
    );
  }
  if (outcome.error.code === "aborted") throw outcome.error;
  throw new PantoError(
    "context_overflow",
    `${overflow.message} (compaction failed: ${outcome.error.message})`,
    {
      cause: overflow,
    },
  );
}

/**
 * The retry after an overflow compaction overflowed too. When the turn in flight is what does not
 * fit (the learned window says so, or nothing but it was left beside the summary), the compaction
 * did nothing useful: it is undone, and the error says the message itself is too large.
 */
export async function afterFailedRetry(deps: RecoveryDeps, error: PantoError): Promise<PantoError> {
  const check = deps.fitCheck();
  const misfit = inFlightMisfit(check);
  if (!(misfit instanceof MessageTooLargeError) && !onlyTurnInFlight(check.context)) return error;
  if (deps.session.activeCompaction()?.trigger !== "overflow") return error;
  await deps.uncompact();
  return messageTooLargeNow(deps.fitCheck(), "compaction-undone", error);
}

function messageTooLargeNow(
  check: FitCheck,
  conversation: "untouched" | "compaction-undone",
  cause: PantoError,
): MessageTooLargeError {
  const { window, overheadTokens, context } = check;
  const size = (tokens: number) => (window === undefined ? tokens : predictProviderTokens(window, tokens));
  const contextWindow = window?.contextWindow ?? cause.contextWindow;
  return messageTooLarge(
    {
      model: check.model,
      messageTokens: size(inFlightEstimate(context)),
      overheadTokens: size(overheadTokens),
      ...optional("contextWindow", contextWindow),
      conversation,
    },
    cause,
  );
}
