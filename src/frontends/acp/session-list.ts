import type { ListSessionsResponse } from "@agentclientprotocol/sdk";
import { RequestError } from "@agentclientprotocol/sdk";
import { shorten } from "../../runtime/format-text.js";
import { listProjectSessions } from "../../runtime/project-sessions.js";

/** Sessions per `session/list` page. */
export const SESSION_PAGE_SIZE = 20;

/**
 * One page of `session/list`: the sessions started in `cwd` (panto's sessions of its project whose
 * working directory is `cwd`, empty ones left out), newest first, titled by their first prompt.
 * The cursor names the last session of the page, so sessions written meanwhile do not shift the
 * next page.
 */
export async function listSessionPage(
  cwd: string,
  env: NodeJS.ProcessEnv,
  cursor: string | undefined,
): Promise<ListSessionsResponse> {
  const { listing } = await listProjectSessions(cwd, env);
  const sessions = listing.sessions.filter((session) => session.cwd === cwd && session.turns > 0);
  let start = 0;
  if (cursor !== undefined) {
    const after = sessions.findIndex((session) => session.id === cursor);
    if (after < 0) throw RequestError.invalidParams(undefined, `unknown session/list cursor "${cursor}"`);
    start = after + 1;
  }
  const page = sessions.slice(start, start + SESSION_PAGE_SIZE);
  const last = page.at(-1);
  return {
    sessions: page.map((session) => ({
      sessionId: session.id,
      cwd: session.cwd,
      title: shorten((session.firstPrompt ?? "").replace(/\s+/g, " ").trim(), 80) || null,
      updatedAt: session.modified,
      _meta: {
        "panto/session": { path: session.path, turns: session.turns, compactions: session.compactions },
      },
    })),
    ...(last !== undefined && start + SESSION_PAGE_SIZE < sessions.length ? { nextCursor: last.id } : {}),
  };
}
