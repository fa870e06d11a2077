import { readdir, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import { ImportError } from "./import-error.js";
import { type ImportPlace, type ImportReport, importSessionFile } from "./import-session-file.js";

/** What `panto import FILE|DIR` did with every file it looked at. */
export interface ImportOutcome {
  dryRun: boolean;
  sessions: ImportReport[];
  /** Recognised sources that could not be imported, with why (naming the file and line). */
  failed: Array<{ source: string; error: string }>;
  /** Files under DIR that are no Claude Code, Codex or pi session, with why. */
  unrecognised: Array<{ source: string; reason: string }>;
}

/** Every `.jsonl` file under `directory`, sorted, symbolic links not followed. */
async function sessionFilesUnder(directory: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) found.push(...(await sessionFilesUnder(path)));
    else if (entry.isFile() && entry.name.endsWith(".jsonl")) found.push(path);
  }
  return found.sort();
}

/**
 * Imports FILE, or every recognised session file under DIR (files ending in `.jsonl`; the format is
 * told by content). A FILE that is not a session is an ImportError; under DIR it is listed as
 * unrecognised and the others go on.
 */
export async function importSessions(
  target: string,
  place: ImportPlace,
  dryRun: boolean,
): Promise<ImportOutcome> {
  const path = resolve(place.cwd, target);
  const info = await stat(path).catch((cause: Error) => {
    throw new ImportError(
      path,
      `${path}: ${cause.message.includes("ENOENT") ? "no such file or folder" : cause.message}`,
    );
  });
  const outcome: ImportOutcome = { dryRun, sessions: [], failed: [], unrecognised: [] };
  if (!info.isDirectory()) {
    outcome.sessions.push(await importSessionFile(path, place, dryRun));
    return outcome;
  }
  for (const file of await sessionFilesUnder(path)) {
    try {
      outcome.sessions.push(await importSessionFile(file, place, dryRun));
    } catch (error) {
      if (error instanceof ImportError && error.problem === "unrecognised")
        outcome.unrecognised.push({ source: file, reason: error.message });
      else outcome.failed.push({ source: file, error: (error as Error).message });
    }
  }
  return outcome;
}
