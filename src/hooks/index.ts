/** User commands run around the agent's work (config "hooks"), in Claude Code's shape. Loaded only when configured. */

export {
  type AgentHooks,
  agentHooks,
  type PreCompactInput,
  type SessionStartSource,
} from "./agent-hooks.js";
export {
  DEFAULT_HOOK_TIMEOUT_SECONDS,
  type HookCommandConfig,
  type HookEventName,
  type HookMatcherConfig,
  type HooksConfig,
} from "./hook-config.js";
export { type HookRun, HookRunner, type HookRunnerOptions, type HookVerdict } from "./hook-runner.js";
export { matcherProblem, matchesHook } from "./matches-hook.js";
