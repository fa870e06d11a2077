export { CheckpointError } from "./checkpoint-error.js";
export type { CheckpointRecorder, CheckpointToken } from "./checkpoint-recorder.js";
export {
  DEFAULT_SNAPSHOT_LIMITS,
  SessionCheckpoints,
  type SessionCheckpointsOptions,
} from "./session-checkpoints.js";
export type { SnapshotLimits } from "./workspace-index.js";
