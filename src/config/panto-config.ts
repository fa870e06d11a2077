import type { ApiKind, SandboxMode } from "../core/index.js";

/** A custom endpoint, usually an OpenAI-compatible server (Ollama, vLLM, OpenRouter, ...). */
export interface ProviderConfig {
  /** Wire protocol; the CLI defaults it to "openai-chat". */
  api?: ApiKind;
  base_url: string;
  /** Name of the environment variable holding the API key (the key itself never sits in config). */
  api_key_env?: string;
  /** Extra HTTP headers sent with every request. */
  headers?: Record<string, string>;
}

/** The settings a config file may hold. Every key is optional; callers apply defaults. */
export interface PantoConfig {
  /** "provider/model". */
  model?: string;
  /** "provider/model" used for compaction; the active model is the fallback. */
  compaction_model?: string;
  /** Token budget of the recent turns kept verbatim by compaction. Non-negative integer. */
  keep_verbatim_tokens?: number;
  /** Positive integer. */
  max_output_tokens?: number;
  /** Restore the paths, commands and errors a summary left out into the compaction block (default true). */
  restore_facts?: boolean;
  /**
   * Prepare the next compaction in the background once a turn ends with the context above this
   * fraction of a known window (0..1, exclusive); absent (the default): nothing is prepared.
   */
  prepare_compaction_at?: number;
  /**
   * Compact at the first request after the prompt cache has gone cold (`clearing.cache_ttl_seconds`
   * without a request), when the context is above this fraction of a known window (0..1,
   * exclusive): the whole prompt is written to the cache again then anyway. Absent (the default):
   * compaction waits for an overflow, as v1.
   */
  compact_when_cold?: number;
  /** Fractions of a known window at which the context warns, once each (default [0.7, 0.85, 0.95]). */
  context_warnings?: number[];
  /** false: record no checkpoints around tool calls (rewinds then take back the conversation only). */
  checkpoints?: boolean;
  /** Files larger than this many bytes are left out of checkpoints (default 10 MiB). */
  checkpoint_max_file_bytes?: number;
  providers?: Record<string, ProviderConfig>;
  /** MCP servers by name; merged per name with a project's `.mcp.json`. */
  mcp_servers?: Record<string, McpServerConfig>;
  /** Variables that `bash` commands receive although their names look secret (GITHUB_TOKEN). */
  bash_env_passthrough?: string[];
  /** Model-request deadlines in milliseconds; each missing one keeps its default. */
  timeouts?: TimeoutsConfig;
  /**
   * How long one call of a tool other than bash (read, write, edit, ls, glob, grep, an MCP tool)
   * may run before it is abandoned with an error result. Positive integer; default 120000.
   */
  tool_deadline_ms?: number;
  /** Task calls (child agents) of one tool round that run at the same time (default 4). */
  max_parallel_tasks?: number;
  /** Commands run around prompts, tool calls and compactions, in Claude Code's shape. */
  hooks?: HooksConfig;
  /** Prices per million tokens by "provider/model", for `/cost`. */
  prices?: Record<string, ModelPrice>;
  /** What panto should take as known about a model, by "provider/model" (its context window). */
  models?: Record<string, ModelSettings>;
  /** How the model's commands and file tools are confined (a bare mode string is read as `{"mode": ...}`). */
  sandbox?: SandboxConfig;
  /** Permission rules, `Tool` or `Tool(pattern)` in Claude Code's syntax (src/permissions). */
  permissions?: PermissionsConfig;
  /** Only these MCP servers start (by name); in the managed settings, no other file can widen it. */
  allowed_mcp_servers?: string[];
  /** When old tool results are cleared from the context (stubs; the file keeps them, recall reads them back). */
  clearing?: ClearingConfig;
  /** Settings of the web_fetch tool. */
  web_fetch?: WebFetchConfig;
}

/** Config "web_fetch". */
export interface WebFetchConfig {
  /**
   * Let web_fetch reach loopback, link-local and private network addresses (default false: no
   * request forgery against the user's own services).
   */
  allow_private?: boolean;
}

/** Config "permissions": rules by list, each `Tool` or `Tool(pattern)`. */
export interface PermissionsConfig {
  allow?: string[];
  ask?: string[];
  deny?: string[];
}

/** Config "clearing"; every key optional, defaults in `src/compaction/plan-clearing.ts`. */
export interface ClearingConfig {
  /** Default true. */
  enabled?: boolean;
  /** Provider-reported prompt size past which clearing is considered (default half a known window, else 100000). */
  trigger_tokens?: number;
  /** The most recent clearable tool results never cleared (default 5). */
  keep_recent?: number;
  /** A clearing happens only when it reclaims at least this many tokens by panto's estimate (default 20000). */
  min_reclaim_tokens?: number;
  /** Tools whose results are never cleared. */
  exclude_tools?: string[];
  /** The provider's prompt-cache lifetime in seconds (default 300). */
  cache_ttl_seconds?: number;
}

/** Config "sandbox". */
export interface SandboxConfig {
  /** Default "workspace-write"; `--sandbox MODE` wins. */
  mode?: SandboxMode;
  /** Commands may use the network (default false). */
  network?: boolean;
  /** Folders writable besides the project: absolute, `~/...`, or relative to the project root. */
  writable_roots?: string[];
  /** Files and folders hidden besides the built-in credential list, written like writable_roots. */
  hidden_paths?: string[];
  /** Ask before every sandboxed `bash` command too (default false: only escapes ask). */
  ask_commands?: boolean;
  /** Processes (and threads) a sandboxed command may run at once (default 4,096). */
  max_processes?: number;
  /** Megabytes of memory each sandboxed process may allocate (default: half the machine's memory). */
  max_memory_mb?: number;
}

/** The hook events panto runs, with the names Claude Code users already write. */
export const HOOK_EVENT_NAMES = [
  "SessionStart",
  "UserPromptSubmit",
  "PreToolUse",
  "PostToolUse",
  "PreCompact",
  "PostCompact",
  "Stop",
] as const;

export type HookEventName = (typeof HOOK_EVENT_NAMES)[number];

/** One command to run: through /bin/bash -c, the event as JSON on stdin. */
export interface HookCommandConfig {
  type: "command";
  command: string;
  /** Seconds before the command (its whole process group) is killed. Default 60. */
  timeout?: number;
}

/**
 * Commands for the events whose subject `matcher` matches: the tool name (PreToolUse, PostToolUse),
 * the trigger (PreCompact, PostCompact) or the source (SessionStart). Absent, "" or "*" match all.
 */
export interface HookMatcherConfig {
  matcher?: string;
  hooks: HookCommandConfig[];
}

/** Config "hooks": per event, the matcher groups in order. */
export type HooksConfig = Partial<Record<HookEventName, HookMatcherConfig[]>>;

/** Config "prices" for one model: US dollars (or any one currency) per million tokens. */
export interface ModelPrice {
  input_per_mtok: number;
  output_per_mtok: number;
  cache_read_per_mtok?: number;
  cache_write_per_mtok?: number;
  /** Tokens written to the one-hour cache (Anthropic: 2x input, where the five-minute cache is 1.25x). */
  cache_write_1h_per_mtok?: number;
}

/** Config "models" for one model. */
export interface ModelSettings {
  /**
   * The context window in tokens, shown as the share the next request fills (status line,
   * `/context`, ACP `usage_update`). Replaces panto's table of published windows; a window the
   * server reports or an overflow taught still wins. Never used to decide when to compact.
   */
  context_window?: number;
  /**
   * Whether the model accepts images, over what panto knows from its name and API (a vision model
   * behind an OpenAI-compatible server; a text-only one behind a vision family's name).
   */
  images?: boolean;
}

/** Config "timeouts". */
export interface TimeoutsConfig {
  /** Until the response headers arrive. Default 30 000. */
  first_byte_ms?: number;
  /** Without content progress (keepalives do not count) once the response has started. Default 120 000. */
  idle_ms?: number;
  /** For the whole request, however it progresses. Default 600 000. */
  request_ms?: number;
}

/** A stdio MCP server (panto starts it) or an HTTP one (panto connects to it). */
export type McpServerConfig =
  | { type?: "stdio"; command: string; args?: string[]; env?: Record<string, string> }
  | { type?: "http" | "sse"; url: string; headers?: Record<string, string> };

/** The keep-verbatim budget used when no config sets one. */
export const DEFAULT_KEEP_VERBATIM_TOKENS = 20000;

/** Wire protocols a custom provider may name. */
export const PROVIDER_APIS = [
  "openai-chat",
  "openai-responses",
  "anthropic-messages",
  "google-gemini",
] as const satisfies readonly ApiKind[];
