import { EXIT_OK } from "../../frontends/shared/exit-status.js";
import { formatSessionTable, sessionsJson } from "../../frontends/terminal/toolkit/format-session-list.js";
import { listProjectSessions } from "../../runtime/project-sessions.js";

export interface SessionsCommandIo {
  json: boolean;
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stderr: NodeJS.WritableStream;
}

/**
 * `panto sessions`: this project's sessions, newest first, as a table (or with --json one JSON
 * array). Files that are not sessions are named on stderr; the listing still succeeds.
 */
export async function runSessionsCommand(io: SessionsCommandIo): Promise<number> {
  const { projectRoot, listing } = await listProjectSessions(io.cwd, io.env);
  for (const problem of listing.problems) io.stderr.write(`panto: warning: ${problem}\n`);
  if (io.json) {
    io.stdout.write(`${JSON.stringify(sessionsJson(listing.sessions))}\n`);
    return EXIT_OK;
  }
  if (listing.sessions.length === 0) {
    io.stdout.write(`no sessions yet for ${projectRoot}\n`);
    return EXIT_OK;
  }
  io.stdout.write(
    formatSessionTable(listing.sessions, io.stdout.isTTY === true ? io.stdout.columns : undefined),
  );
  return EXIT_OK;
}
