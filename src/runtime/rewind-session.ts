import {
  applyRewind,
  blockedMessage,
  type PreparedRewind,
  prepareRewind,
  type RewindReport,
  type RewindTarget,
} from "../checkpoints/index.js";
import type { RewindScope, Session } from "../session/index.js";

/** What a rewind came to: made (`report`), only worked out (a dry run), or refused (`blocked`: why). */
export interface RewindResult {
  prepared: PreparedRewind;
  report?: RewindReport;
  /** The checkpoints cannot restore the code: why (nothing was changed). */
  blocked?: string;
}

/** How a worked-out rewind is made, whoever asked for it (`/rewind`, `panto rewind`). */
export interface MakeRewindOptions {
  pantoHome: string;
  /** Work it out and change nothing. */
  dryRun: boolean;
  /** Overwrite files changed since panto recorded them: given (--force), or asked once it is worked out. */
  force: boolean | ((prepared: PreparedRewind) => Promise<boolean>);
  /** Runs `use` with the session the rewind entry is appended to (a run's, or one opened for it). */
  withSession: (use: (session: Session) => Promise<RewindReport>) => Promise<RewindReport>;
}

/**
 * Makes a worked-out rewind: refused when the checkpoints cannot restore its code, only reported on
 * a dry run, else applied (files restored, the rewind entry appended). The one path `/rewind` and
 * `panto rewind` share; each chooses the point and shows the result its own way.
 */
export async function makeRewind(
  prepared: PreparedRewind,
  options: MakeRewindOptions,
): Promise<RewindResult> {
  const blockers = prepared.code?.plan.blockers ?? [];
  if (blockers.length > 0) return { prepared, blocked: blockedMessage(blockers) };
  if (options.dryRun) return { prepared };
  const force = typeof options.force === "boolean" ? options.force : await options.force(prepared);
  const report = await options.withSession((session) =>
    applyRewind(prepared, session, { pantoHome: options.pantoHome, force }),
  );
  return { prepared, report };
}

/** Works out the rewind of `sessionPath` to `target` (RewindError "usage" for a bad one), then makes it. */
export async function rewindSession(
  input: { sessionPath: string; target: RewindTarget; scope: RewindScope } & MakeRewindOptions,
): Promise<RewindResult> {
  const { sessionPath, pantoHome, target, scope } = input;
  const prepared = await prepareRewind({ sessionPath, pantoHome, target, scope });
  return await makeRewind(prepared, input);
}
