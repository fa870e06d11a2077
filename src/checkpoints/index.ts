export { applyRewind, blockedMessage, type RewindReport, UNCOVERED_WORDS } from "./apply-rewind.js";
export { CheckpointError } from "./checkpoint-error.js";
export type { CheckpointRecorder, CheckpointToken } from "./checkpoint-recorder.js";
export { storeDirectory } from "./checkpoint-store.js";
export { checkpointsHome } from "./checkpoints-home.js";
export {
  checkpointWarning,
  describeRewindDone,
  describeRewindPlan,
  describeRewindPoint,
  describeRewindPoints,
  doneActions,
  type FileAction,
  plannedActions,
  turnRanges,
} from "./describe-rewind.js";
export type { CodePlan, PlannedFile, SkippedPath } from "./plan-code-rewind.js";
export {
  type PreparedRewind,
  type PrepareRewindOptions,
  prepareRewind,
  type RewindTarget,
} from "./prepare-rewind.js";
export { adoptObjects, type ReleasedObjects, releaseSessionObjects } from "./release-session-objects.js";
export type { FileVerdict } from "./restore-files.js";
export { isRewindError, RewindError } from "./rewind-error.js";
export { listRewindPoints, type RewindPoint } from "./rewind-points.js";
export {
  DEFAULT_SNAPSHOT_LIMITS,
  SessionCheckpoints,
  type SessionCheckpointsOptions,
} from "./session-checkpoints.js";
export type { SnapshotLimits } from "./workspace-index.js";
