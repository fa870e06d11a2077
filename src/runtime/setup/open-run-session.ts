import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import {
  type ForkedSession,
  findLatestConversation,
  newSessionPath,
  type OpenSessionOptions,
  openNewSession,
  openReservedSession,
  openSession,
  type Session,
} from "../../session/index.js";
import type { RunOptions } from "../run-context.js";
import { makeFork } from "./fork-run-session.js";
import type { RunPlace } from "./run-place.js";
import { resolveSessionArgument } from "./session-argument.js";
import { setupStep } from "./setup-errors.js";

/**
 * Opens the session `--session`, `-r` or `-c` names, a fork of the one `--fork` names, or a new
 * one. A new session's file is created by its first entry, so a launch that sends nothing leaves
 * none. `resumed` is true when the file already held entries.
 */
export async function openRunSession(
  options: RunOptions,
  place: RunPlace,
  sessionOptions: OpenSessionOptions & { onWarning: (message: string) => void },
): Promise<{ session: Session; resumed: boolean; fork?: ForkedSession }> {
  if (options.fork !== undefined) {
    const { session: parent, turn } = options.fork;
    const parentPath = await resolveSessionArgument(parent, "--fork", place);
    const fork = await setupStep(() => makeFork(parentPath, turn, place));
    return { session: await setupStep(() => openSession(fork.path, sessionOptions)), resumed: true, fork };
  }
  const path = await chooseSessionPath(options, place, sessionOptions.onWarning);
  const resumed = await hasContent(path);
  const session = await setupStep(async () => {
    if (resumed || (await exists(path))) return await openSession(path, sessionOptions);
    // A path the user named may be named by another panto too: lock it now, not at the first write.
    if (options.session !== undefined) return await openReservedSession(path, sessionOptions);
    return openNewSession(path, sessionOptions);
  });
  return { session, resumed };
}

async function chooseSessionPath(
  options: RunOptions,
  { cwd, pantoHome, projectRoot }: RunPlace,
  onWarning: (message: string) => void,
): Promise<string> {
  if (options.session !== undefined) return resolve(cwd, options.session);
  if (options.resume !== undefined)
    return await resolveSessionArgument(options.resume, "--resume", { cwd, pantoHome, projectRoot });
  if (options.continue) {
    const latest = await findLatestConversation(pantoHome, projectRoot);
    if (latest !== undefined) return latest;
    onWarning(`no earlier conversation for ${projectRoot}; starting a new one`);
  }
  return newSessionPath(pantoHome, projectRoot);
}

async function exists(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined)) !== undefined;
}

async function hasContent(path: string): Promise<boolean> {
  try {
    return (await stat(path)).size > 0;
  } catch {
    return false;
  }
}
