import type { CheckpointRecorder, CheckpointToken, SessionCheckpoints } from "../../checkpoints/index.js";
import type { PantoConfig } from "../../config/index.js";
import type { ToolCallBlock, ToolResultBlock } from "../../core/index.js";
import type { CheckpointEntry, Session } from "../../session/index.js";
import type { Tool } from "../../tools/index.js";

/** A session's recorder as the run holds it: it records, and closes with the session. */
export type RunCheckpoints = CheckpointRecorder & { close(): Promise<void> };

/**
 * What records a session's checkpoints around tool calls: one recorder per session (its index of
 * the workspace is the session's own), none when config `checkpoints` is false.
 */
export function checkpointRecorderFor(
  config: Pick<PantoConfig, "checkpoints" | "checkpoint_max_file_bytes">,
  pantoHome: string,
  cwd: string,
): (session: Session) => RunCheckpoints | undefined {
  if (config.checkpoints === false) return () => undefined;
  const limits =
    config.checkpoint_max_file_bytes === undefined ? {} : { maxFileBytes: config.checkpoint_max_file_bytes };
  return (session) => new LazyCheckpoints(() => ({ session, pantoHome, cwd, limits }));
}

/**
 * The session's SessionCheckpoints, made (and its code loaded) at the first tool call: a run that
 * calls no tool never loads the checkpoint store.
 */
class LazyCheckpoints implements RunCheckpoints {
  #recorder: Promise<SessionCheckpoints> | undefined;

  constructor(private readonly options: () => ConstructorParameters<typeof SessionCheckpoints>[0]) {}

  #load(): Promise<SessionCheckpoints> {
    this.#recorder ??= import("../../checkpoints/session-checkpoints.js").then(
      ({ SessionCheckpoints }) => new SessionCheckpoints(this.options()),
    );
    return this.#recorder;
  }

  async before(call: ToolCallBlock, tool: Tool, cwd: string): Promise<CheckpointToken> {
    return (await this.#load()).before(call, tool, cwd);
  }

  async after(token: CheckpointToken, result: ToolResultBlock): Promise<CheckpointEntry | undefined> {
    return (await this.#load()).after(token, result);
  }

  async close(): Promise<void> {
    await (await this.#recorder)?.close();
  }
}
