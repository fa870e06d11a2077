import type { CliOptions } from "../../frontends/shared/cli-options.js";
import { EXIT_INTERRUPTED, EXIT_USAGE } from "../../frontends/shared/exit-status.js";
import { formatSessionTable } from "../../frontends/terminal/toolkit/format-session-list.js";
import { listProjectSessions } from "../../runtime/project-sessions.js";

export interface ResumePickIo {
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (mode: boolean) => unknown };
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number; rows?: number };
  stderr: NodeJS.WritableStream;
}

/**
 * `-r` without an id. In a terminal (stdin and stdout both TTYs) the picker chooses, and the
 * options come back with that session's path; Esc or Ctrl-C there is exit status 130. Anywhere
 * else the list goes to stderr with a hint, and the exit status is 2.
 */
export async function pickResume(options: CliOptions, io: ResumePickIo): Promise<CliOptions | number> {
  const { projectRoot, listing } = await listProjectSessions(io.cwd, io.env);
  if (listing.sessions.length === 0) {
    io.stderr.write(
      `panto: --resume: this project (${projectRoot}) has no sessions yet; run panto to start one\n`,
    );
    return EXIT_USAGE;
  }
  if (io.stdin.isTTY !== true || io.stdout.isTTY !== true) {
    io.stderr.write(formatSessionTable(listing.sessions));
    io.stderr.write(
      "panto: --resume needs an id here (no terminal to pick in): panto -r ID, ID a prefix from the list\n",
    );
    return EXIT_USAGE;
  }
  const { pickSession } = await import("../../frontends/terminal/toolkit/session-picker.js");
  const chosen = await pickSession(listing.sessions, io);
  if (chosen === undefined) {
    io.stderr.write("panto: no session chosen\n");
    return EXIT_INTERRUPTED;
  }
  return { ...options, resume: chosen.path };
}
