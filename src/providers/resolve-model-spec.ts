import { type ApiKind, optional, PantoError } from "../core/index.js";
import { BUILT_IN_PROVIDER_NAMES, BUILT_IN_PROVIDERS, type BuiltInProvider } from "./model-catalog.js";

/** One entry of config "providers": an endpoint reached through one of the four adapters. */
export interface ProviderConfigEntry {
  /** Wire protocol; default "openai-chat" (or the built-in's own when the name is a built-in's). */
  api?: ApiKind;
  base_url: string;
  /** Variable holding the key; omit for keyless servers. */
  api_key_env?: string;
  headers?: Record<string, string>;
}

/** Config "providers": name (as written before the slash of a model id) to endpoint settings. */
export type ProvidersConfig = Record<string, ProviderConfigEntry>;

/** Everything needed to build an adapter for one model id. Never logged with its key. */
export interface ModelSpec {
  /** As written in the model id. */
  provider: string;
  /** The part after the first slash, which may itself contain slashes. */
  model: string;
  api: ApiKind;
  /** Undefined: the SDK's default endpoint. */
  baseURL?: string;
  apiKey?: string;
  /** The variable the key came from (or would come from). */
  apiKeyEnv?: string;
  headers?: Record<string, string>;
  /**
   * Set for the built-in `openai` provider: if the endpoint has no /responses route (an
   * OpenAI-compatible server at OPENAI_BASE_URL), the Chat Completions adapter takes over.
   */
  chatFallback?: boolean;
}

export interface ResolveModelSpecOptions {
  config?: ProvidersConfig;
  env?: NodeJS.ProcessEnv;
}

/** Splits "provider/model" at the first slash: "openrouter/anthropic/claude" -> openrouter + anthropic/claude. */
export function parseModelId(id: string): { provider: string; model: string } {
  const trimmed = id.trim();
  const slash = trimmed.indexOf("/");
  if (slash <= 0 || slash === trimmed.length - 1) {
    throw new PantoError(
      "invalid_request",
      `model "${id}" must be written provider/model, e.g. anthropic/claude-sonnet-4-5`,
    );
  }
  return { provider: trimmed.slice(0, slash), model: trimmed.slice(slash + 1) };
}

/**
 * Works out which adapter, endpoint, key and headers serve a model id, from the built-in providers,
 * config "providers" (which may override a built-in by name) and the environment. Throws a
 * PantoError: invalid_request for a malformed id or unknown provider, auth for a missing key.
 */
export function resolveModelSpec(id: string, options: ResolveModelSpecOptions = {}): ModelSpec {
  const { provider, model } = parseModelId(id);
  const env = options.env ?? process.env;
  const custom = ownEntry(options.config, provider);
  const builtIn = ownEntry(BUILT_IN_PROVIDERS, provider.toLowerCase());
  if (custom === undefined && builtIn === undefined) throw unknownProvider(provider, id);
  const api = custom?.api ?? builtIn?.api ?? "openai-chat";
  const baseURL = custom?.base_url ?? (builtIn === undefined ? undefined : builtInBaseURL(builtIn, env));
  const spec: ModelSpec = {
    provider,
    model,
    api,
    ...optional("baseURL", baseURL),
    ...resolveKey(provider, custom, builtIn, env),
    ...(custom?.headers === undefined ? {} : { headers: { ...custom.headers } }),
  };
  // Only the built-in default may fall back; an api chosen explicitly in config is taken at its word.
  return builtIn?.api === "openai-responses" && custom?.api === undefined
    ? { ...spec, chatFallback: true }
    : spec;
}

function ownEntry<T>(table: Readonly<Record<string, T>> | undefined, name: string): T | undefined {
  return table !== undefined && Object.hasOwn(table, name) ? table[name] : undefined;
}

function firstSet(
  env: NodeJS.ProcessEnv,
  names: readonly string[],
): { name: string; value: string } | undefined {
  for (const name of names) {
    const value = env[name];
    if (value !== undefined && value.trim() !== "") return { name, value: value.trim() };
  }
  return undefined;
}

function builtInBaseURL(builtIn: BuiltInProvider, env: NodeJS.ProcessEnv): string | undefined {
  const override = firstSet(env, builtIn.baseURLEnv)?.value;
  if (override === undefined) return builtIn.defaultBaseURL;
  return builtIn.local === true ? withDefaultPath(override, "/v1") : override;
}

/** "http://host:11434" -> "http://host:11434/v1"; a URL that already has a path is kept as written. */
function withDefaultPath(url: string, path: string): string {
  try {
    const parsed = new URL(url);
    return parsed.pathname === "/" || parsed.pathname === "" ? `${parsed.origin}${path}` : url;
  } catch {
    return url;
  }
}

/**
 * The key and where it came from. A config entry's api_key_env is required; a built-in's key is
 * required unless it is a local server or config points it at another endpoint (which may be keyless).
 */
function resolveKey(
  provider: string,
  custom: ProviderConfigEntry | undefined,
  builtIn: BuiltInProvider | undefined,
  env: NodeJS.ProcessEnv,
): Pick<ModelSpec, "apiKey" | "apiKeyEnv"> {
  const names = custom?.api_key_env !== undefined ? [custom.api_key_env] : (builtIn?.keyEnv ?? []);
  const found = firstSet(env, names);
  if (found !== undefined) return { apiKey: found.value, apiKeyEnv: found.name };
  const required = custom?.api_key_env !== undefined || (custom === undefined && builtIn?.local !== true);
  if (required && names[0] !== undefined) throw missingKey(provider, names);
  return names[0] === undefined ? {} : { apiKeyEnv: names[0] };
}

function missingKey(provider: string, names: readonly string[]): PantoError {
  const [first, ...rest] = names;
  const alternatives = rest.length === 0 ? "" : ` (or ${rest.join(", ")})`;
  return new PantoError("auth", `no API key for ${provider}: set ${first}${alternatives}`, { provider });
}

function unknownProvider(provider: string, id: string): PantoError {
  return new PantoError(
    "invalid_request",
    `unknown provider "${provider}" in model "${id}"; built-in providers: ${BUILT_IN_PROVIDER_NAMES.join(", ")}; custom ones go in config "providers"`,
  );
}
