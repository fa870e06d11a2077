import { describe, expect, it } from "vitest";
import { isPantoError, type PantoError } from "../../src/core/index.js";
import { BUILT_IN_PROVIDER_NAMES } from "../../src/providers/model-catalog.js";
import { parseModelId, resolveModelSpec } from "../../src/providers/resolve-model-spec.js";

function thrown(action: () => unknown): PantoError {
  try {
    action();
  } catch (error) {
    if (isPantoError(error)) return error;
    throw error;
  }
  throw new Error("expected a PantoError");
}

describe("parseModelId", () => {
  it("splits at the first slash so the model part may contain slashes", () => {
    expect(parseModelId("openrouter/anthropic/claude-sonnet-4.5")).toEqual({
      provider: "openrouter",
      model: "anthropic/claude-sonnet-4.5",
    });
  });

  it.each(["claude-sonnet-4-5", "/claude", "anthropic/", ""])("rejects %j with a usage hint", (id) => {
    const error = thrown(() => parseModelId(id));
    expect(error.code).toBe("invalid_request");
    expect(error.message).toBe(
      `model "${id}" must be written provider/model, e.g. anthropic/claude-sonnet-4-5`,
    );
  });
});

describe("resolveModelSpec for built-in providers", () => {
  it("resolves anthropic to the Messages API with its key and base-URL override", () => {
    const env = { ANTHROPIC_API_KEY: "sk-ant-test", ANTHROPIC_BASE_URL: "http://127.0.0.1:9999" };
    expect(resolveModelSpec("anthropic/claude-sonnet-4-5", { env })).toEqual({
      provider: "anthropic",
      model: "claude-sonnet-4-5",
      api: "anthropic-messages",
      baseURL: "http://127.0.0.1:9999",
      apiKey: "sk-ant-test",
      apiKeyEnv: "ANTHROPIC_API_KEY",
    });
  });

  it("leaves the base URL to the SDK when no override is set", () => {
    const spec = resolveModelSpec("anthropic/claude-sonnet-4-5", { env: { ANTHROPIC_API_KEY: "k" } });
    expect(spec.baseURL).toBeUndefined();
  });

  it("resolves openai to the Responses API with the chat fallback enabled", () => {
    const env = { OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: "http://127.0.0.1:8000/v1" };
    expect(resolveModelSpec("openai/gpt-5", { env })).toEqual({
      provider: "openai",
      model: "gpt-5",
      api: "openai-responses",
      baseURL: "http://127.0.0.1:8000/v1",
      apiKey: "sk-test",
      apiKeyEnv: "OPENAI_API_KEY",
      chatFallback: true,
    });
  });

  it("takes GEMINI_API_KEY before GOOGLE_API_KEY and keeps the alias the user wrote", () => {
    const env = {
      GEMINI_API_KEY: "g1",
      GOOGLE_API_KEY: "g2",
      GOOGLE_GEMINI_BASE_URL: "http://127.0.0.1:7000",
    };
    const spec = resolveModelSpec("gemini/gemini-2.5-pro", { env });
    expect(spec).toMatchObject({
      provider: "gemini",
      api: "google-gemini",
      apiKey: "g1",
      apiKeyEnv: "GEMINI_API_KEY",
      baseURL: "http://127.0.0.1:7000",
    });
  });

  it("falls back to GOOGLE_API_KEY and prefers GEMINI_BASE_URL", () => {
    const env = { GOOGLE_API_KEY: "g2", GEMINI_BASE_URL: "http://a", GOOGLE_GEMINI_BASE_URL: "http://b" };
    expect(resolveModelSpec("google/gemini-2.5-flash", { env })).toMatchObject({
      provider: "google",
      apiKey: "g2",
      apiKeyEnv: "GOOGLE_API_KEY",
      baseURL: "http://a",
    });
  });

  it.each([
    ["openrouter", "OPENROUTER_API_KEY", "https://openrouter.ai/api/v1"],
    ["groq", "GROQ_API_KEY", "https://api.groq.com/openai/v1"],
    ["xai", "XAI_API_KEY", "https://api.x.ai/v1"],
    ["deepseek", "DEEPSEEK_API_KEY", "https://api.deepseek.com/v1"],
    ["mistral", "MISTRAL_API_KEY", "https://api.mistral.ai/v1"],
    ["together", "TOGETHER_API_KEY", "https://api.together.xyz/v1"],
    ["fireworks", "FIREWORKS_API_KEY", "https://api.fireworks.ai/inference/v1"],
    ["cerebras", "CEREBRAS_API_KEY", "https://api.cerebras.ai/v1"],
  ])("resolves the %s preset to the chat adapter with %s and %s", (name, keyEnv, baseURL) => {
    const spec = resolveModelSpec(`${name}/some-model`, { env: { [keyEnv]: "key" } });
    expect(spec).toEqual({
      provider: name,
      model: "some-model",
      api: "openai-chat",
      baseURL,
      apiKey: "key",
      apiKeyEnv: keyEnv,
    });
  });

  it.each([
    ["ollama", "http://127.0.0.1:11434/v1"],
    ["lmstudio", "http://127.0.0.1:1234/v1"],
    ["llamacpp", "http://127.0.0.1:8080/v1"],
    ["vllm", "http://127.0.0.1:8000/v1"],
  ])("resolves the local %s preset without a key at %s", (name, baseURL) => {
    const spec = resolveModelSpec(`${name}/qwen3:8b`, { env: {} });
    expect(spec).toEqual({
      provider: name,
      model: "qwen3:8b",
      api: "openai-chat",
      baseURL,
      apiKeyEnv: `${name.toUpperCase()}_API_KEY`,
    });
  });

  it("uses a key for a local server when one is set (vLLM --api-key)", () => {
    expect(resolveModelSpec("vllm/m", { env: { VLLM_API_KEY: "local-secret" } }).apiKey).toBe("local-secret");
  });

  it("lets <NAME>_BASE_URL override a preset, adding /v1 to a bare local host", () => {
    expect(
      resolveModelSpec("ollama/llama3", { env: { OLLAMA_BASE_URL: "http://gpu-box:11434" } }).baseURL,
    ).toBe("http://gpu-box:11434/v1");
    expect(
      resolveModelSpec("groq/llama", { env: { GROQ_API_KEY: "k", GROQ_BASE_URL: "http://proxy/groq" } })
        .baseURL,
    ).toBe("http://proxy/groq");
  });

  it("ignores empty variables", () => {
    const spec = resolveModelSpec("ollama/llama3", { env: { OLLAMA_BASE_URL: "", OLLAMA_API_KEY: " " } });
    expect(spec.baseURL).toBe("http://127.0.0.1:11434/v1");
    expect(spec.apiKey).toBeUndefined();
  });

  it("matches built-in names case-insensitively but keeps the name as written", () => {
    const spec = resolveModelSpec("Anthropic/claude-opus-4-1", { env: { ANTHROPIC_API_KEY: "k" } });
    expect(spec.provider).toBe("Anthropic");
    expect(spec.api).toBe("anthropic-messages");
  });
});

describe("resolveModelSpec for config providers", () => {
  it("defaults a custom provider to the chat adapter with its key variable and headers", () => {
    const config = {
      corp: {
        base_url: "https://llm.corp.example/v1",
        api_key_env: "CORP_LLM_KEY",
        headers: { "X-Team": "infra" },
      },
    };
    expect(resolveModelSpec("corp/big-model", { config, env: { CORP_LLM_KEY: "c" } })).toEqual({
      provider: "corp",
      model: "big-model",
      api: "openai-chat",
      baseURL: "https://llm.corp.example/v1",
      apiKey: "c",
      apiKeyEnv: "CORP_LLM_KEY",
      headers: { "X-Team": "infra" },
    });
  });

  it("honours an explicit api and a keyless endpoint", () => {
    const config = { proxy: { api: "anthropic-messages" as const, base_url: "http://127.0.0.1:4000" } };
    expect(resolveModelSpec("proxy/claude", { config, env: {} })).toEqual({
      provider: "proxy",
      model: "claude",
      api: "anthropic-messages",
      baseURL: "http://127.0.0.1:4000",
    });
  });

  it("lets a config entry named like a built-in override its endpoint while keeping its api", () => {
    const config = { openai: { base_url: "http://127.0.0.1:8080/v1" } };
    const spec = resolveModelSpec("openai/local-model", {
      config,
      env: { OPENAI_BASE_URL: "http://ignored", OPENAI_API_KEY: "k" },
    });
    expect(spec).toMatchObject({ api: "openai-responses", baseURL: "http://127.0.0.1:8080/v1", apiKey: "k" });
    expect(spec.chatFallback).toBe(true);
  });

  it("does not require the built-in key once config points the built-in elsewhere", () => {
    const config = { anthropic: { base_url: "http://127.0.0.1:4000" } };
    expect(resolveModelSpec("anthropic/claude", { config, env: {} }).apiKey).toBeUndefined();
  });

  it("turns the chat fallback off when config names the api explicitly", () => {
    const config = { openai: { api: "openai-responses" as const, base_url: "http://127.0.0.1:8080/v1" } };
    expect(
      resolveModelSpec("openai/m", { config, env: { OPENAI_API_KEY: "k" } }).chatFallback,
    ).toBeUndefined();
  });

  it("does not treat inherited object properties as providers", () => {
    expect(thrown(() => resolveModelSpec("constructor/x", { config: {}, env: {} })).code).toBe(
      "invalid_request",
    );
  });
});

describe("resolveModelSpec failures", () => {
  it("names the variable to set when a key is missing, and is an auth error", () => {
    const error = thrown(() => resolveModelSpec("anthropic/claude-sonnet-4-5", { env: {} }));
    expect(error.code).toBe("auth");
    expect(error.message).toBe("no API key for anthropic: set ANTHROPIC_API_KEY");
  });

  it("lists the alternative variables for Gemini", () => {
    expect(thrown(() => resolveModelSpec("google/gemini-2.5-pro", { env: {} })).message).toBe(
      "no API key for google: set GEMINI_API_KEY (or GOOGLE_API_KEY)",
    );
  });

  it("requires the key variable a config provider names", () => {
    const config = { corp: { base_url: "https://llm.corp.example/v1", api_key_env: "CORP_LLM_KEY" } };
    expect(thrown(() => resolveModelSpec("corp/m", { config, env: {} })).message).toBe(
      "no API key for corp: set CORP_LLM_KEY",
    );
  });

  it("never puts a key into an error message", () => {
    const env = { OPENAI_API_KEY: "sk-very-secret" };
    const error = thrown(() => resolveModelSpec("foo/bar", { env }));
    expect(error.message).not.toContain("sk-very-secret");
  });

  it("explains an unknown provider and lists the built-ins", () => {
    const error = thrown(() => resolveModelSpec("foo/bar", { env: {} }));
    expect(error.code).toBe("invalid_request");
    expect(error.message).toBe(
      `unknown provider "foo" in model "foo/bar"; built-in providers: ${BUILT_IN_PROVIDER_NAMES.join(", ")}; custom ones go in config "providers"`,
    );
    expect(error.message).toContain("anthropic, openai, google, gemini, openrouter");
  });
});
