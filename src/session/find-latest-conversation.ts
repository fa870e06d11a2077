import { listSessions } from "./list-sessions.js";
import { sessionDirectory } from "./session-paths.js";

/**
 * The most recently written session of this project that holds a user message (what `-c` resumes),
 * found through the same listing and index cache as `panto sessions`. A session whose counts are
 * only a lower bound (too large to count now) is big enough to hold one.
 */
export async function findLatestConversation(
  pantoHome: string,
  projectRoot: string,
): Promise<string | undefined> {
  const { sessions } = await listSessions(sessionDirectory(pantoHome, projectRoot));
  return sessions.find((session) => session.turns > 0 || !session.countsExact)?.path;
}
