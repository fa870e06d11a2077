import type { ToolCallBlock, ToolResultBlock } from "../core/index.js";
import type { CheckpointEntry } from "../session/index.js";
import type { Tool } from "../tools/index.js";

/** What `before` hands to `after` for one call; only the recorder looks inside. */
export interface CheckpointToken {
  readonly call: ToolCallBlock;
}

/**
 * Records what tool calls change, around each call and outside any sandbox (panto's own process):
 * the agent calls `before` once the call is allowed to run and `after` once it (and its PostToolUse
 * hooks) finished, whatever the outcome. `after` returns the checkpoint entry it appended, if any.
 * Neither throws: a checkpoint that cannot be taken is recorded with its error.
 */
export interface CheckpointRecorder {
  before(call: ToolCallBlock, tool: Tool, cwd: string): Promise<CheckpointToken>;
  after(token: CheckpointToken, result: ToolResultBlock): Promise<CheckpointEntry | undefined>;
}
