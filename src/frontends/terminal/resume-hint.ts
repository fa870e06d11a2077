import type { Session } from "../../session/index.js";

/**
 * What the interactive session says on the way out: the session's id and the command that resumes
 * it. Undefined for a session that never wrote anything (it has no file to resume).
 */
export function resumeHint(session: Session): string | undefined {
  if (!session.hasFile) return undefined;
  return `Session ${session.header.id}\nResume it with: panto -r ${session.header.id}`;
}
