import { z } from "zod";
import { SANDBOX_MODES } from "../core/index.js";
import { HOOK_EVENT_NAMES, PROVIDER_APIS } from "./panto-config.js";

const modelId = z.string().regex(/^[^/\s]+\/\S+$/);
const positiveInteger = z.number().int().min(1);

export const providerSchema = z.strictObject({
  api: z.enum(PROVIDER_APIS).optional(),
  base_url: z.string().regex(/^https?:\/\/\S+$/),
  api_key_env: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/)
    .optional(),
  headers: z.record(z.string(), z.string()).optional(),
});

const stringMap = z.record(z.string(), z.string());

/** An MCP server panto starts (stdio) or connects to (HTTP), as in `.mcp.json`'s `mcpServers`. */
export const mcpServerSchema = z.union([
  z.strictObject({
    type: z.literal("stdio").optional(),
    command: z.string().min(1),
    args: z.array(z.string()).optional(),
    env: stringMap.optional(),
  }),
  z.strictObject({
    type: z.enum(["http", "sse"]).optional(),
    url: z.string().regex(/^https?:\/\/\S+$/),
    headers: stringMap.optional(),
  }),
]);

const envName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/);

export const timeoutsSchema = z.strictObject({
  first_byte_ms: positiveInteger.optional(),
  idle_ms: positiveInteger.optional(),
  request_ms: positiveInteger.optional(),
});

const hookCommandSchema = z.strictObject({
  type: z.literal("command"),
  command: z.string().min(1),
  timeout: z.number().positive().optional(),
});

/** A matcher is a name, names joined by "|", or a regular expression: it must compile. */
const hookMatcherSchema = z.strictObject({
  matcher: z.string().refine(compiles).optional(),
  hooks: z.array(hookCommandSchema),
});

export const hooksSchema = z.strictObject(
  Object.fromEntries(HOOK_EVENT_NAMES.map((name) => [name, z.array(hookMatcherSchema).optional()])) as Record<
    (typeof HOOK_EVENT_NAMES)[number],
    z.ZodOptional<z.ZodArray<typeof hookMatcherSchema>>
  >,
);

const perMillionTokens = z.number().min(0);

export const sandboxSchema = z.strictObject({
  mode: z.enum(SANDBOX_MODES).optional(),
  network: z.boolean().optional(),
  writable_roots: z.array(z.string().min(1)).optional(),
  hidden_paths: z.array(z.string().min(1)).optional(),
  ask_commands: z.boolean().optional(),
  max_processes: z.number().int().min(1).optional(),
  max_memory_mb: z.number().int().min(1).optional(),
});

/** Config "web_fetch": the web_fetch tool's settings. */
export const webFetchSchema = z.strictObject({
  allow_private: z.boolean().optional(),
});

/** Config "permissions": rules in Claude Code's syntax, read by src/permissions after this shape check. */
export const permissionsSchema = z.strictObject({
  allow: z.array(z.string()).optional(),
  ask: z.array(z.string()).optional(),
  deny: z.array(z.string()).optional(),
});

export const priceSchema = z.strictObject({
  input_per_mtok: perMillionTokens,
  output_per_mtok: perMillionTokens,
  cache_read_per_mtok: perMillionTokens.optional(),
  cache_write_per_mtok: perMillionTokens.optional(),
  cache_write_1h_per_mtok: perMillionTokens.optional(),
});

/** Config "clearing": when old tool results leave the context (issue 34). */
export const clearingSchema = z.strictObject({
  enabled: z.boolean().optional(),
  trigger_tokens: positiveInteger.optional(),
  keep_recent: z.number().int().min(0).optional(),
  min_reclaim_tokens: z.number().int().min(0).optional(),
  exclude_tools: z.array(z.string().min(1)).optional(),
  cache_ttl_seconds: positiveInteger.optional(),
});

/** Config "models": what panto should take as known about one model. */
export const modelSettingsSchema = z.strictObject({
  context_window: positiveInteger.optional(),
  images: z.boolean().optional(),
});

function compiles(pattern: string): boolean {
  if (pattern === "*") return true;
  try {
    new RegExp(pattern);
    return true;
  } catch {
    return false;
  }
}

/** The shape of a config file. Strict, so a misspelt key is an error instead of a silent no-op. */
export const configSchema = z.strictObject({
  /** Lets editors validate the file; ignored by panto. */
  $schema: z.string().optional(),
  model: modelId.optional(),
  compaction_model: modelId.optional(),
  keep_verbatim_tokens: z.number().int().min(0).optional(),
  max_output_tokens: positiveInteger.optional(),
  restore_facts: z.boolean().optional(),
  prepare_compaction_at: z.number().gt(0).lt(1).optional(),
  compact_when_cold: z.number().gt(0).lt(1).optional(),
  context_warnings: z.array(z.number().gt(0).lt(1)).optional(),
  checkpoints: z.boolean().optional(),
  checkpoint_max_file_bytes: positiveInteger.optional(),
  providers: z.record(z.string().regex(/^[^/\s]+$/), providerSchema).optional(),
  mcp_servers: z.record(z.string().regex(/^[A-Za-z0-9_-]+$/), mcpServerSchema).optional(),
  bash_env_passthrough: z.array(envName).optional(),
  timeouts: timeoutsSchema.optional(),
  tool_deadline_ms: positiveInteger.optional(),
  max_parallel_tasks: positiveInteger.optional(),
  hooks: hooksSchema.optional(),
  permissions: permissionsSchema.optional(),
  allowed_mcp_servers: z.array(z.string().min(1)).optional(),
  prices: z.record(modelId, priceSchema).optional(),
  models: z.record(modelId, modelSettingsSchema).optional(),
  // "sandbox": "read-only" is short for {"mode": "read-only"}: expanded before validation (parseConfigText).
  sandbox: sandboxSchema.optional(),
  clearing: clearingSchema.optional(),
  web_fetch: webFetchSchema.optional(),
});

/**
 * What each key must be, in words, keyed by its path with provider and header names replaced by
 * "*". Zod's own messages speak of types ("expected int, received number"); users need the rule.
 */
export const KEY_RULES: Record<string, string> = {
  "": "must be a JSON object",
  $schema: "must be a string",
  model: 'must be a "provider/model" string, e.g. "anthropic/claude-sonnet-4-5"',
  compaction_model: 'must be a "provider/model" string, e.g. "openai/gpt-5-mini"',
  keep_verbatim_tokens: "must be a non-negative integer",
  max_output_tokens: "must be a positive integer",
  restore_facts: "must be true or false",
  prepare_compaction_at:
    "must be a fraction between 0 and 1 (of a known context window), e.g. 0.8; leave it out to prepare nothing",
  compact_when_cold:
    "must be a fraction between 0 and 1 (of a known context window), e.g. 0.3; leave it out never to compact before an overflow",
  context_warnings: "must be a list of fractions between 0 and 1, e.g. [0.7, 0.85, 0.95]; [] warns never",
  "context_warnings.*": "must be a fraction between 0 and 1, e.g. 0.85",
  checkpoints: "must be true or false",
  checkpoint_max_file_bytes: "must be a positive integer (bytes)",
  providers: "must be an object mapping provider names to endpoint settings",
  "providers.*": 'must be an object such as {"base_url": "http://localhost:11434/v1"}',
  "providers.*.api": `must be one of ${PROVIDER_APIS.map((api) => `"${api}"`).join(", ")}`,
  "providers.*.base_url": "must be an http:// or https:// URL",
  "providers.*.api_key_env": "must be the name of an environment variable, e.g. OPENROUTER_API_KEY",
  "providers.*.headers": "must be an object of header names to string values",
  "providers.*.headers.*": "must be a string",
  mcp_servers: "must be an object mapping server names to MCP server settings",
  "mcp_servers.*":
    'must be {"command": "...", "args": ["..."], "env": {...}} (stdio) or {"url": "https://...", "headers": {...}} (HTTP)',
  bash_env_passthrough: 'must be an array of environment variable names, e.g. ["GITHUB_TOKEN"]',
  "bash_env_passthrough.*": "must be the name of an environment variable, e.g. GITHUB_TOKEN",
  timeouts: 'must be an object such as {"first_byte_ms": 30000, "idle_ms": 120000, "request_ms": 600000}',
  "timeouts.first_byte_ms": "must be a positive integer (milliseconds)",
  "timeouts.idle_ms": "must be a positive integer (milliseconds)",
  "timeouts.request_ms": "must be a positive integer (milliseconds)",
  tool_deadline_ms: "must be a positive integer (milliseconds)",
  permissions: 'must be an object such as {"allow": ["Bash(npm run test:*)"], "deny": ["Read(./.env)"]}',
  "permissions.allow": 'must be a list of rules such as "Bash(npm run test:*)" or "Edit(src/**)"',
  "permissions.ask": 'must be a list of rules such as "Bash(git push:*)"',
  "permissions.deny": 'must be a list of rules such as "Read(./.env)" or "Bash(rm -rf:*)"',
  "permissions.allow.*": 'must be a rule such as "Bash(npm run test:*)"',
  "permissions.ask.*": 'must be a rule such as "Bash(git push:*)"',
  "permissions.deny.*": 'must be a rule such as "Read(./.env)"',
  allowed_mcp_servers: 'must be a list of MCP server names, e.g. ["github", "filesystem"]',
  "allowed_mcp_servers.*": "must be an MCP server name",
  max_parallel_tasks: "must be a positive integer (task calls of one tool round that run at once)",
  hooks: `must be an object mapping hook events (${HOOK_EVENT_NAMES.join(", ")}) to lists of matcher groups`,
  "hooks.*":
    'must be a list such as [{"matcher": "bash", "hooks": [{"type": "command", "command": "./check.sh"}]}]',
  "hooks.*.*":
    'must be an object such as {"matcher": "bash", "hooks": [{"type": "command", "command": "./check.sh"}]}',
  "hooks.*.*.matcher": 'must be a tool name, names joined by "|", "*", or a valid regular expression',
  "hooks.*.*.hooks": 'must be a list of {"type": "command", "command": "...", "timeout": 10}',
  "hooks.*.*.hooks.*":
    'must be an object such as {"type": "command", "command": "./check.sh", "timeout": 10}',
  "hooks.*.*.hooks.*.type": 'must be "command"',
  "hooks.*.*.hooks.*.command": "must be a non-empty string (run with /bin/bash -c)",
  "hooks.*.*.hooks.*.timeout": "must be a positive number of seconds",
  prices: 'must be an object mapping "provider/model" to prices per million tokens',
  "prices.*":
    'must be an object such as {"input_per_mtok": 3, "output_per_mtok": 15, "cache_read_per_mtok": 0.3, "cache_write_per_mtok": 3.75}',
  "prices.*.input_per_mtok": "must be a non-negative number (price per million input tokens)",
  "prices.*.output_per_mtok": "must be a non-negative number (price per million output tokens)",
  "prices.*.cache_read_per_mtok": "must be a non-negative number (price per million cache-read tokens)",
  "prices.*.cache_write_per_mtok": "must be a non-negative number (price per million cache-write tokens)",
  "prices.*.cache_write_1h_per_mtok":
    "must be a non-negative number (price per million tokens written to the one-hour cache)",
  models:
    'must be an object mapping "provider/model" to model settings, e.g. {"ollama/qwen3-coder": {"context_window": 65536}}',
  "models.*": 'must be an object such as {"context_window": 200000, "images": true}',
  "models.*.images": "must be true or false (whether the model accepts images)",
  "models.*.context_window":
    "must be a positive integer (the model's context window in tokens; shown, never used to decide when to compact)",
  sandbox: `must be a mode (${SANDBOX_MODES.map((mode) => `"${mode}"`).join(", ")}) or an object such as {"mode": "workspace-write", "network": false, "writable_roots": ["~/scratch"]}`,
  "sandbox.mode": `must be one of ${SANDBOX_MODES.map((mode) => `"${mode}"`).join(", ")}`,
  "sandbox.network": "must be true or false",
  "sandbox.writable_roots": 'must be a list of folders, e.g. ["~/scratch", "../shared"]',
  "sandbox.writable_roots.*": "must be a non-empty path (absolute, ~/..., or relative to the project root)",
  "sandbox.hidden_paths": 'must be a list of files or folders, e.g. ["~/.config/my-tool"]',
  "sandbox.hidden_paths.*": "must be a non-empty path (absolute, ~/..., or relative to the project root)",
  "sandbox.ask_commands": "must be true or false",
  "sandbox.max_processes":
    "must be a whole number of processes (threads count too) at least 1, e.g. 4096, the most a sandboxed command may run at once",
  "sandbox.max_memory_mb":
    "must be a whole number of megabytes at least 1, e.g. 8192, the most memory each sandboxed process may allocate",
  clearing:
    'must be an object such as {"enabled": true, "trigger_tokens": 100000, "keep_recent": 5, "min_reclaim_tokens": 20000, "exclude_tools": ["read"], "cache_ttl_seconds": 300}',
  "clearing.enabled": "must be true or false",
  "clearing.trigger_tokens":
    "must be a positive integer (the provider-reported prompt size past which old tool results are cleared)",
  "clearing.keep_recent": "must be a non-negative integer (the most recent tool results never cleared)",
  "clearing.min_reclaim_tokens": "must be a non-negative integer (tokens a clearing must reclaim at least)",
  "clearing.exclude_tools": 'must be a list of tool names, e.g. ["read", "recall"]',
  "clearing.exclude_tools.*": "must be a non-empty tool name",
  "clearing.cache_ttl_seconds": "must be a positive integer (seconds the provider's prompt cache lives)",
  web_fetch: 'must be an object such as {"allow_private": true}',
  "web_fetch.allow_private":
    "must be true or false (true lets web_fetch reach loopback, link-local and private network addresses)",
};

/** Keys allowed directly under `path` (for "unknown key" messages); `$schema` goes unmentioned. */
export function allowedKeys(path: readonly PropertyKey[]): string[] {
  const shape =
    path.length === 0
      ? configSchema.shape
      : path[0] === "timeouts"
        ? timeoutsSchema.shape
        : path[0] === "hooks"
          ? hookShape(path)
          : path[0] === "sandbox"
            ? sandboxSchema.shape
            : path[0] === "clearing"
              ? clearingSchema.shape
              : path[0] === "web_fetch"
                ? webFetchSchema.shape
                : path.length === 2 && path[0] === "prices"
                  ? priceSchema.shape
                  : path.length === 2 && path[0] === "models"
                    ? modelSettingsSchema.shape
                    : path.length === 2 && path[0] === "providers"
                      ? providerSchema.shape
                      : {};
  return Object.keys(shape).filter((key) => key !== "$schema");
}

/** The keys allowed at a path inside "hooks": event names, a matcher group's, a command's. */
function hookShape(path: readonly PropertyKey[]): object {
  if (path.length === 1) return hooksSchema.shape;
  if (path.length === 3) return hookMatcherSchema.shape;
  if (path.length === 5) return hookCommandSchema.shape;
  return {};
}

/** "providers.local.headers.x-id" -> "providers.*.headers.*"; "bash_env_passthrough.2" -> "bash_env_passthrough.*" */
export function ruleKey(path: readonly PropertyKey[]): string {
  return path
    .map((segment, index) => {
      if (path[0] === "mcp_servers") return index === 1 ? "*" : String(segment);
      if (path[0] === "bash_env_passthrough" && index === 1) return "*";
      if ((path[0] === "prices" || path[0] === "models") && index === 1) return "*";
      if ((path[0] === "sandbox" || path[0] === "clearing") && index === 2) return "*";
      if (path[0] === "permissions" && index === 2) return "*";
      if ((path[0] === "allowed_mcp_servers" || path[0] === "context_warnings") && index === 1) return "*";
      if (path[0] === "hooks" && (index === 1 || index === 2 || index === 4)) return "*";
      if (path[0] !== "providers") return String(segment);
      return index === 1 || (index === 3 && path[2] === "headers") ? "*" : String(segment);
    })
    .join(".");
}
