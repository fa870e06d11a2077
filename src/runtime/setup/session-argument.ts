import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import {
  findLatestSession,
  resolveSessionRef,
  type SessionRef,
  sessionDirectory,
  uniqueIdPrefixes,
} from "../../session/index.js";
import { UsageError } from "./setup-errors.js";

/** Where a session argument is looked up: relative paths from `cwd`, ids among the project's sessions. */
export interface SessionLocation {
  cwd: string;
  pantoHome: string;
  projectRoot: string;
}

/** Candidates named in an error about an unknown or ambiguous id. */
const MAX_NAMED = 10;

/**
 * The session file a SESSION argument means, for every command that takes one (`-r`, `export`,
 * `fidelity`): a path to an existing file; anything else with a slash or ending in `.jsonl` must
 * be such a path; otherwise a header-id or file-name prefix among this project's sessions. With no
 * argument, the project's latest session when `latest` allows it. Errors are UsageErrors that start
 * with `label` and name the candidates, so each command reports them alike.
 */
export async function resolveSessionArgument(
  argument: string | undefined,
  label: string,
  where: SessionLocation,
): Promise<string> {
  const directory = sessionDirectory(where.pantoHome, where.projectRoot);
  if (argument === undefined) {
    const latest = await findLatestSession(where.pantoHome, where.projectRoot);
    if (latest !== undefined) return latest;
    throw new UsageError(`${label}: this project (${where.projectRoot}) has no sessions yet`, "session");
  }
  const asPath = resolve(where.cwd, argument);
  if ((await stat(asPath).catch(() => undefined))?.isFile() === true) return asPath;
  if (/[/\\]/.test(argument) || argument.endsWith(".jsonl"))
    throw new UsageError(`${label}: no session file at ${asPath}`, "session");
  const match = await resolveSessionRef(directory, argument);
  if (match.type === "found") return match.session.path;
  if (match.type === "ambiguous")
    throw new UsageError(
      `${label}: "${argument}" matches ${match.candidates.length} sessions; give more of the id:\n${nameRefs(match.candidates)}`,
      "session",
    );
  const known =
    match.known.length === 0
      ? `this project (${where.projectRoot}) has no sessions yet`
      : `this project's sessions (panto sessions lists them):\n${nameRefs(match.known)}`;
  throw new UsageError(`${label}: no session id or file name starts with "${argument}"; ${known}`, "session");
}

function nameRefs(refs: readonly SessionRef[]): string {
  const short = uniqueIdPrefixes(refs.map((ref) => ref.id));
  const lines = refs.slice(0, MAX_NAMED).map((ref, index) => `  ${short[index] ?? ref.id}  ${ref.path}`);
  if (refs.length > MAX_NAMED) lines.push(`  … and ${refs.length - MAX_NAMED} more`);
  return lines.join("\n");
}
