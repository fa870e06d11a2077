export { bubblewrapArgs } from "./bubblewrap-args.js";
export { type AccessIntent, checkAccess, checkHostPath, hostPathOf, viewPathOf } from "./check-access.js";
export {
  checkSandboxStarts,
  diagnoseNamespaces,
  sandboxStartError,
  WITHOUT_SANDBOX,
} from "./check-sandbox-starts.js";
export { CREDENTIAL_PATHS, hiddenPathList } from "./credential-paths.js";
export { GIT_CONTROL_FILES, gitControlReason, WORKTREE_CONTROL_FILES } from "./git-control-files.js";
export {
  ChangedWhileOpened,
  descriptorPath,
  type HeldFile,
  type HeldOpen,
  openHeldFile,
  readHeldFolder,
  withHeldFolder,
} from "./held-file.js";
export type { ProbeCheck } from "./probe-checks.js";
export { type ProbeReport, probeSandbox } from "./probe-sandbox.js";
export {
  PROTECTED_GIT_NAMES,
  PROTECTED_NAMES,
  pointedGitDirectories,
  protectionFor,
} from "./protected-paths.js";
export { restoreWatched } from "./restore-watched.js";
export { type ConfinedResult, runConfined } from "./run-confined.js";
export {
  type AfterCommand,
  type PreparedCommand,
  Sandbox,
  type SandboxEnvironment,
  type SandboxLauncher,
  type ToolSandbox,
} from "./sandbox.js";
export { SandboxError, SandboxRefusal, type SandboxRule } from "./sandbox-error.js";
export {
  coveringRule,
  isWritable,
  type PathRule,
  type PathRuleKind,
  ruleFor,
  type SandboxLayout,
  sandboxLayout,
  type WatchedPath,
} from "./sandbox-layout.js";
export {
  buildSandboxPolicy,
  type ConfinedMode,
  concealedPathsFor,
  expandPath,
  exposedPathsFor,
  type PolicyContext,
  type PrivateTmp,
  type SandboxPlatform,
  type SandboxPolicy,
} from "./sandbox-policy.js";
export { resolveSandboxSettings, type SandboxSettings } from "./sandbox-settings.js";
export { sbplString, seatbeltProfile } from "./seatbelt-profile.js";
