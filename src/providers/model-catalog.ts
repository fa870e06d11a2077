import type { ApiKind } from "../core/index.js";

/** How a built-in provider is reached: wire protocol, endpoint and where its key comes from. */
export interface BuiltInProvider {
  api: ApiKind;
  /** Variables holding the API key, first set one wins. Empty for keyless local servers. */
  keyEnv: readonly string[];
  /** Variables overriding the base URL, first set one wins. */
  baseURLEnv: readonly string[];
  /** Undefined: the SDK's own default endpoint. */
  defaultBaseURL?: string;
  /** A keyless local server; an override without a path gets `/v1` appended (OLLAMA_BASE_URL=http://host:11434). */
  local?: boolean;
}

/** An OpenAI-compatible server reached through the Chat Completions adapter. */
function chatPreset(name: string, defaultBaseURL: string, keyed: boolean): BuiltInProvider {
  const upper = name.toUpperCase();
  return {
    api: "openai-chat",
    // Keyless servers may still be started with a key (vLLM --api-key); it is used when set.
    keyEnv: [`${upper}_API_KEY`],
    baseURLEnv: [`${upper}_BASE_URL`],
    defaultBaseURL,
    ...(keyed ? {} : { local: true }),
  };
}

const GEMINI: BuiltInProvider = {
  api: "google-gemini",
  keyEnv: ["GEMINI_API_KEY", "GOOGLE_API_KEY"],
  baseURLEnv: ["GEMINI_BASE_URL", "GOOGLE_GEMINI_BASE_URL"],
};

/** Built-in providers by the name written before the slash of a model id. */
export const BUILT_IN_PROVIDERS: Readonly<Record<string, BuiltInProvider>> = {
  anthropic: { api: "anthropic-messages", keyEnv: ["ANTHROPIC_API_KEY"], baseURLEnv: ["ANTHROPIC_BASE_URL"] },
  openai: { api: "openai-responses", keyEnv: ["OPENAI_API_KEY"], baseURLEnv: ["OPENAI_BASE_URL"] },
  google: GEMINI,
  gemini: GEMINI,
  openrouter: chatPreset("openrouter", "https://openrouter.ai/api/v1", true),
  groq: chatPreset("groq", "https://api.groq.com/openai/v1", true),
  xai: chatPreset("xai", "https://api.x.ai/v1", true),
  deepseek: chatPreset("deepseek", "https://api.deepseek.com/v1", true),
  mistral: chatPreset("mistral", "https://api.mistral.ai/v1", true),
  together: chatPreset("together", "https://api.together.xyz/v1", true),
  fireworks: chatPreset("fireworks", "https://api.fireworks.ai/inference/v1", true),
  cerebras: chatPreset("cerebras", "https://api.cerebras.ai/v1", true),
  ollama: chatPreset("ollama", "http://127.0.0.1:11434/v1", false),
  lmstudio: chatPreset("lmstudio", "http://127.0.0.1:1234/v1", false),
  llamacpp: chatPreset("llamacpp", "http://127.0.0.1:8080/v1", false),
  vllm: chatPreset("vllm", "http://127.0.0.1:8000/v1", false),
};

/** Names of the built-in providers, for error messages and help text. */
export const BUILT_IN_PROVIDER_NAMES: readonly string[] = Object.keys(BUILT_IN_PROVIDERS);
