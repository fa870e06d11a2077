import { SessionCheckpoints } from "../../checkpoints/index.js";
import type { PantoConfig } from "../../config/index.js";
import type { Session } from "../../session/index.js";

/**
 * What records a session's checkpoints around tool calls: one recorder per session (its index of
 * the workspace is the session's own), none when config `checkpoints` is false.
 */
export function checkpointRecorderFor(
  config: Pick<PantoConfig, "checkpoints" | "checkpoint_max_file_bytes">,
  pantoHome: string,
  cwd: string,
): (session: Session) => SessionCheckpoints | undefined {
  if (config.checkpoints === false) return () => undefined;
  const limits =
    config.checkpoint_max_file_bytes === undefined ? {} : { maxFileBytes: config.checkpoint_max_file_bytes };
  return (session) => new SessionCheckpoints({ session, pantoHome, cwd, limits });
}
