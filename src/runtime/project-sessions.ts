import { findProjectRoot, resolvePantoHome } from "../config/index.js";
import { listSessions, type SessionListing, sessionDirectory } from "../session/index.js";

/**
 * The sessions of the project `cwd` belongs to (its folder under panto's home), newest first: what
 * `panto sessions`, `-r` without an id and an editor's session list show.
 */
export async function listProjectSessions(
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<{ directory: string; projectRoot: string; listing: SessionListing }> {
  const pantoHome = resolvePantoHome(env);
  const projectRoot = findProjectRoot(cwd, { pantoHome });
  const directory = sessionDirectory(pantoHome, projectRoot);
  return { directory, projectRoot, listing: await listSessions(directory) };
}
