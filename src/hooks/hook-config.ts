export type {
  HookCommandConfig,
  HookEventName,
  HookMatcherConfig,
  HooksConfig,
} from "../config/index.js";

/** Seconds a hook command may run when its config sets no `timeout`. */
export const DEFAULT_HOOK_TIMEOUT_SECONDS = 60;
