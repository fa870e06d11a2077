import { findChildSessions, readSessionUsage, sessionDirectory } from "../session/index.js";
import { addSessionUsage, type SubagentUsage } from "./commands/describe-cost.js";
import type { RunContext } from "./run-context.js";

/**
 * The usage of every subagent session the `task` tool started for this run's session, read from
 * their own files (a subagent's session names the parent in its header, relation "task").
 */
export async function readSubagentUsage(
  run: Pick<RunContext, "pantoHome" | "projectRoot" | "session">,
): Promise<SubagentUsage> {
  const directory = sessionDirectory(run.pantoHome, run.projectRoot);
  const { id, created } = run.session.header;
  const children = await findChildSessions(directory, id, "task", created);
  const usage = addSessionUsage(await Promise.all(children.map((path) => readSessionUsage(path))));
  return { sessions: children.length, usage };
}
