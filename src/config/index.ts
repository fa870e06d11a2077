export { ConfigError, isConfigError } from "./config-error.js";
export { findProjectRoot } from "./find-project-root.js";
export {
  type LoadedConfig,
  loadConfig,
  localConfigPath,
  managedConfigPath,
  projectConfigPath,
  userConfigPath,
} from "./load-config.js";
export { type JsonErrorLocation, locateJsonError } from "./locate-json-error.js";
export { mergeConfigs } from "./merge-configs.js";
export {
  type ClearingConfig,
  DEFAULT_KEEP_VERBATIM_TOKENS,
  HOOK_EVENT_NAMES,
  type HookCommandConfig,
  type HookEventName,
  type HookMatcherConfig,
  type HooksConfig,
  type McpServerConfig,
  type ModelPrice,
  type ModelSettings,
  type PantoConfig,
  type PermissionsConfig,
  PROVIDER_APIS,
  type ProviderConfig,
  type SandboxConfig,
  type TimeoutsConfig,
  type WebFetchConfig,
} from "./panto-config.js";
export {
  type FrontMatter,
  frontMatterList,
  frontMatterText,
  parseFrontMatter,
} from "./parse-front-matter.js";
export {
  COMPACTION_PROMPT_FILE,
  type CompactionPromptLayer,
  readCompactionPromptLayers,
} from "./read-compaction-prompt-layers.js";
export { resolvePantoHome } from "./resolve-panto-home.js";
