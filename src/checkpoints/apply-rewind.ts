import { appendFile } from "node:fs/promises";
import { dirname } from "node:path";
import { makeFolder } from "../core/index.js";
import type { RewindEntry, RewindFileOutcome, Session } from "../session/index.js";
import { sessionObjectsPath, storeDirectory } from "./checkpoint-store.js";
import { checkpointPath } from "./file-version.js";
import type { SkippedPath } from "./plan-code-rewind.js";
import { objectsDirFor, type PreparedRewind } from "./prepare-rewind.js";
import { judgeFiles, type RestoredChange, restoreFiles } from "./restore-files.js";
import { RewindError } from "./rewind-error.js";
import { blockedMessage, UNCOVERED_WORDS } from "./rewind-words.js";
import { objectList } from "./session-checkpoints.js";

// Their home is rewind-words.ts, which the rewind's descriptions import without this module.
export { blockedMessage, UNCOVERED_WORDS };

/** What a rewind did: the entry it appended (its outcomes per file included). */
export interface RewindReport {
  prepared: PreparedRewind;
  entry: RewindEntry;
}

/** The skipped paths as outcomes, each saying why it was left alone. */
export function skippedOutcomes(skipped: readonly SkippedPath[]): RewindFileOutcome[] {
  return skipped.map((item) => ({
    path: item.path,
    outcome: "skipped",
    reason: UNCOVERED_WORDS[item.reason],
  }));
}

async function rememberObjects(pantoHome: string, sessionId: string, changes: readonly RestoredChange[]) {
  for (const root of new Set(changes.map((change) => change.file.root))) {
    const path = sessionObjectsPath({ dir: storeDirectory(pantoHome, root) }, sessionId);
    await makeFolder(dirname(path), 0o700);
    const files = changes
      .filter((change) => change.file.root === root)
      .map((change) => ({ path: "", ...change }));
    await appendFile(path, objectList(files), { mode: 0o600 });
  }
}

/**
 * Carries out a prepared rewind in `session` (open and locked, the same file): restores the files
 * (judged again now; conflicts are left alone unless `force`), then appends the rewind entry, which
 * also records what the restore changed so a later rewind to it undoes it. A code rewind whose
 * checkpoints are incomplete is refused whole: never a partial restore without saying so.
 */
export async function applyRewind(
  prepared: PreparedRewind,
  session: Session,
  options: { pantoHome: string; force: boolean },
): Promise<RewindReport> {
  const code = prepared.code;
  if (code !== undefined && code.plan.blockers.length > 0)
    throw new RewindError(blockedMessage(code.plan.blockers));
  let outcomes: RewindFileOutcome[] = [];
  let changes: RestoredChange[] = [];
  if (code !== undefined) {
    const objects = objectsDirFor(options.pantoHome);
    const verdicts = await judgeFiles(objects, code.plan.files, true);
    const restored = await restoreFiles(objects, verdicts, options.force);
    await rememberObjects(options.pantoHome, session.header.id, restored.changes);
    outcomes = [...restored.outcomes, ...skippedOutcomes(code.plan.skipped)];
    changes = restored.changes;
  }
  const root = changes[0]?.file.root;
  const entry = await session.appendRewind({
    firstEntryId: prepared.point.entryId,
    scope: prepared.scope,
    turn: prepared.turn,
    droppedTurns: prepared.droppedTurns,
    ...(root === undefined ? {} : { root }),
    files: changes.map((change) => ({
      path: checkpointPath(root as string, change.file.absolute),
      before: change.before,
      after: change.after,
    })),
    outcomes,
  });
  return { prepared, entry };
}
