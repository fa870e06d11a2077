/** How long each server-information request may take: the answer is a nicety, never worth a wait. */
const QUERY_TIMEOUT_MS = 1500;

/** The OpenAI-compatible servers panto knows where to ask for a context window. */
export type ServerKind = "llama.cpp" | "ollama" | "lmstudio" | "vllm" | "openrouter";

export interface ContextWindowQuery {
  /** The OpenAI-compatible base URL, /v1 included. */
  baseURL: string;
  /** What the server is, when known (see serverKind); unknown: only the standard model listing is asked. */
  kind?: ServerKind;
  /** Model name without the provider prefix. */
  model: string;
  apiKey?: string;
  headers?: Record<string, string>;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

type Probe = (query: ContextWindowQuery, root: string) => Promise<number | undefined>;

/**
 * The context window an OpenAI-compatible server reports for `model`, asked only where its kind
 * says it: llama.cpp (`GET /props` default_generation_settings.n_ctx, else `GET /slots`), Ollama
 * (`POST /api/show`: the num_ctx parameter, else model_info "*.context_length"), LM Studio
 * (`GET /api/v0/models`: loaded_context_length, else max_context_length), vLLM, OpenRouter and a
 * server of unknown kind (`GET <base>/models`, the one route every OpenAI-compatible server has:
 * context_length, or vLLM's max_model_len). Undefined when it does not say. Never throws.
 */
export async function queryContextWindow(query: ContextWindowQuery): Promise<number | undefined> {
  const root = serverRoot(query.baseURL);
  const probe = query.kind === undefined ? listedWindow : PROBES[query.kind];
  return await probe(query, root).catch(() => undefined);
}

/**
 * What an OpenAI-compatible server is, from the provider's name (a built-in one, or a custom one
 * named after it), else the default port of a local server or OpenRouter's host; undefined when
 * neither tells.
 */
export function serverKind(provider: string, baseURL: string): ServerKind | undefined {
  const byName: Record<string, ServerKind> = {
    llamacpp: "llama.cpp",
    "llama.cpp": "llama.cpp",
    "llama-cpp": "llama.cpp",
    ollama: "ollama",
    lmstudio: "lmstudio",
    "lm-studio": "lmstudio",
    vllm: "vllm",
    openrouter: "openrouter",
  };
  const named = byName[provider.toLowerCase()];
  if (named !== undefined) return named;
  let url: URL;
  try {
    url = new URL(baseURL);
  } catch {
    return undefined;
  }
  if (url.hostname === "openrouter.ai") return "openrouter";
  const byPort: Record<string, ServerKind> = { "11434": "ollama", "1234": "lmstudio", "8080": "llama.cpp" };
  return byPort[url.port];
}

/** The base URL without its API path: "http://host:8080/v1" -> "http://host:8080". */
function serverRoot(baseURL: string): string {
  return baseURL.replace(/\/+$/, "").replace(/\/(api\/)?v\d+$/, "");
}

const llamaCppWindow: Probe = async (query, root) => {
  const props = await getJson(query, `${root}/props`);
  const fromProps = positive(path(props, ["default_generation_settings", "n_ctx"]) ?? path(props, ["n_ctx"]));
  if (fromProps !== undefined) return fromProps;
  const slots = await getJson(query, `${root}/slots`);
  return Array.isArray(slots) ? positive(path(slots[0], ["n_ctx"])) : undefined;
};

const ollamaWindow: Probe = async (query, root) => {
  const show = await getJson(query, `${root}/api/show`, { model: query.model });
  const parameters = path(show, ["parameters"]);
  const numCtx =
    typeof parameters === "string" ? /(?:^|\n)\s*num_ctx\s+(\d+)/.exec(parameters)?.[1] : undefined;
  if (numCtx !== undefined) return positive(Number(numCtx));
  const info = path(show, ["model_info"]);
  if (typeof info !== "object" || info === null) return undefined;
  const key = Object.keys(info).find((name) => name.endsWith(".context_length"));
  return key === undefined ? undefined : positive((info as Record<string, unknown>)[key]);
};

const lmStudioWindow: Probe = async (query, root) => {
  const entry = listedModel(await getJson(query, `${root}/api/v0/models`), query.model);
  return positive(path(entry, ["loaded_context_length"])) ?? positive(path(entry, ["max_context_length"]));
};

const listedWindow: Probe = async (query) => {
  const entry = listedModel(await getJson(query, `${query.baseURL.replace(/\/+$/, "")}/models`), query.model);
  return positive(path(entry, ["context_length"])) ?? positive(path(entry, ["max_model_len"]));
};

const PROBES: Readonly<Record<ServerKind, Probe>> = {
  "llama.cpp": llamaCppWindow,
  ollama: ollamaWindow,
  lmstudio: lmStudioWindow,
  vllm: listedWindow,
  openrouter: listedWindow,
};

function listedModel(listing: unknown, model: string): unknown {
  const data = path(listing, ["data"]);
  return Array.isArray(data) ? data.find((entry) => path(entry, ["id"]) === model) : undefined;
}

/** GET (or POST `body`) as JSON; undefined for anything but a 2xx JSON answer in time. */
async function getJson(query: ContextWindowQuery, url: string, body?: unknown): Promise<unknown> {
  const headers: Record<string, string> = { ...query.headers, accept: "application/json" };
  if (query.apiKey !== undefined) headers.authorization = `Bearer ${query.apiKey}`;
  if (body !== undefined) headers["content-type"] = "application/json";
  const response = await (query.fetch ?? fetch)(url, {
    method: body === undefined ? "GET" : "POST",
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(query.timeoutMs ?? QUERY_TIMEOUT_MS),
  });
  if (!response.ok) {
    await response.body?.cancel();
    return undefined;
  }
  return await response.json();
}

function path(value: unknown, keys: readonly string[]): unknown {
  let current = value;
  for (const key of keys) {
    if (typeof current !== "object" || current === null) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

function positive(value: unknown): number | undefined {
  return typeof value === "number" && Number.isInteger(value) && value > 0 ? value : undefined;
}
