import { open, readdir, stat } from "node:fs/promises";
import { basename, join, resolve } from "node:path";
import { findLatestSession, SessionError, sessionDirectory } from "../session/index.js";

export interface SessionLocation {
  cwd: string;
  pantoHome: string;
  projectRoot: string;
}

/** The header id of a session file, or undefined when line 1 is not a readable header. */
async function headerId(path: string): Promise<string | undefined> {
  const file = await open(path, "r").catch(() => undefined);
  if (file === undefined) return undefined;
  try {
    const buffer = Buffer.alloc(4096);
    const { bytesRead } = await file.read(buffer, 0, buffer.length, 0);
    const line = buffer.subarray(0, bytesRead).toString("utf8").split("\n")[0] ?? "";
    const id = (JSON.parse(line) as { id?: unknown }).id;
    return typeof id === "string" ? id : undefined;
  } catch {
    return undefined;
  } finally {
    await file.close();
  }
}

async function isFile(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isFile() === true;
}

/** Session files of this project whose file name or header id starts with `prefix`. */
async function matchPrefix(directory: string, prefix: string): Promise<string[]> {
  const names = await readdir(directory).catch(() => [] as string[]);
  const matches: string[] = [];
  for (const name of names.filter((candidate) => candidate.endsWith(".jsonl")).sort()) {
    const path = join(directory, name);
    const fileId = name.slice(name.lastIndexOf("_") + 1, -".jsonl".length);
    if (name.startsWith(prefix) || fileId.startsWith(prefix) || (await headerId(path))?.startsWith(prefix))
      matches.push(path);
  }
  return matches;
}

/**
 * The session file meant by `panto export [SESSION]`: none given, this project's latest session;
 * a path to an existing file; else an id prefix, matched against the file names and header ids of
 * this project's sessions. No match, or more than one, is a SessionError (a usage error) that says
 * what was searched or what matched.
 */
export async function resolveSessionArgument(
  argument: string | undefined,
  where: SessionLocation,
): Promise<string> {
  const directory = sessionDirectory(where.pantoHome, where.projectRoot);
  if (argument === undefined) {
    const latest = await findLatestSession(where.pantoHome, where.projectRoot);
    if (latest === undefined)
      throw new SessionError(
        directory,
        `no session of ${where.projectRoot} to export (none in ${directory})`,
      );
    return latest;
  }
  const asPath = resolve(where.cwd, argument);
  if (await isFile(asPath)) return asPath;
  if (argument.includes("/") || argument.endsWith(".jsonl"))
    throw new SessionError(asPath, `no session file ${asPath}`);
  const matches = argument === "" ? [] : await matchPrefix(directory, argument);
  if (matches.length === 1) return matches[0] as string;
  if (matches.length === 0)
    throw new SessionError(
      directory,
      `no session of this project matches "${argument}" (looked for a file or an id prefix in ${directory})`,
    );
  throw new SessionError(
    directory,
    `"${argument}" matches ${matches.length} sessions; give more of the id:\n  ${matches.map((path) => basename(path)).join("\n  ")}`,
  );
}
