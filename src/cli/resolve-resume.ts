import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import { resolveSessionRef, type SessionRef, sessionDirectory, uniqueIdPrefixes } from "../session/index.js";
import type { CliOptions } from "./cli-options.js";
import { EXIT_INTERRUPTED, EXIT_USAGE, UsageError } from "./exit-status.js";
import { formatSessionTable } from "./format-session-list.js";
import { listProjectSessions } from "./sessions-command.js";

/** Candidates named in an error about an unknown or ambiguous id. */
const MAX_NAMED = 10;

/**
 * The session file `-r REF` means: a path (anything with a slash or ending in .jsonl) that must
 * exist, else a header-id or file-name prefix among this project's sessions. An unknown or
 * ambiguous prefix is a UsageError naming the candidates, which start with `label` (the option or
 * command that named the session).
 */
export async function resolveResumePath(
  ref: string,
  cwd: string,
  pantoHome: string,
  projectRoot: string,
  label = "--resume",
): Promise<string> {
  if (/[/\\]/.test(ref) || ref.endsWith(".jsonl")) {
    const path = resolve(cwd, ref);
    const info = await stat(path).catch(() => undefined);
    if (info?.isFile() !== true) throw new UsageError(`${label}: no session file at ${path}`, "session");
    return path;
  }
  const match = await resolveSessionRef(sessionDirectory(pantoHome, projectRoot), ref);
  if (match.type === "found") return match.session.path;
  if (match.type === "ambiguous")
    throw new UsageError(
      `${label}: "${ref}" matches ${match.candidates.length} sessions; give more of the id:\n${nameRefs(match.candidates)}`,
      "session",
    );
  const known =
    match.known.length === 0
      ? `this project (${projectRoot}) has no sessions yet`
      : `this project's sessions (panto sessions lists them):\n${nameRefs(match.known)}`;
  throw new UsageError(`${label}: no session id or file name starts with "${ref}"; ${known}`, "session");
}

function nameRefs(refs: readonly SessionRef[]): string {
  const short = uniqueIdPrefixes(refs.map((ref) => ref.id));
  const lines = refs.slice(0, MAX_NAMED).map((ref, index) => `  ${short[index] ?? ref.id}  ${ref.path}`);
  if (refs.length > MAX_NAMED) lines.push(`  … and ${refs.length - MAX_NAMED} more`);
  return lines.join("\n");
}

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
  const { pickSession } = await import("./session-picker.js");
  const chosen = await pickSession(listing.sessions, io);
  if (chosen === undefined) {
    io.stderr.write("panto: no session chosen\n");
    return EXIT_INTERRUPTED;
  }
  return { ...options, resume: chosen.path };
}
