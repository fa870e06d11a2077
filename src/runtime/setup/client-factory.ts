import type { LoadedConfig, TimeoutsConfig } from "../../config/index.js";
import { type ModelClient, optional } from "../../core/index.js";
import type { ContextWindowStore } from "../../providers/create-model-client.js";
import type { SecretRedactor } from "../../secrets/index.js";

/**
 * createModelClient, loaded lazily (it pulls in the provider SDKs) and memoised per model id so
 * checking the key up front costs nothing later.
 */
export async function clientFactory(
  loaded: LoadedConfig,
  env: NodeJS.ProcessEnv,
  onWarning: (message: string) => void,
  secrets: SecretRedactor,
  /** Whether servers are asked for their context window (where it is shown), else only the kept ones read. */
  probeWindows = true,
): Promise<(modelId: string) => ModelClient> {
  const { createModelClient } = await import("../../providers/create-model-client.js");
  // The file's code loads only when a window is first wanted (off the start-up path).
  const file = async () =>
    (await import("./context-window-file.js")).contextWindowFile(loaded.pantoHome, probeWindows);
  const contextWindows: ContextWindowStore = {
    probe: probeWindows,
    read: async (baseURL, model) => (await file()).read(baseURL, model),
    write: async (baseURL, model, tokens) => (await file()).write(baseURL, model, tokens),
  };
  const clients = new Map<string, ModelClient>();
  return (modelId) => {
    const existing = clients.get(modelId);
    if (existing !== undefined) return existing;
    const client = createModelClient(modelId, {
      env,
      onWarning,
      redact: secrets.redact,
      contextWindows,
      ...timeoutOptions(loaded.config.timeouts),
      ...optional("config", loaded.config.providers),
      ...optional("acceptsImages", loaded.config.models?.[modelId]?.images),
      ...(loaded.config.max_output_tokens === undefined
        ? {}
        : { maxOutputTokens: loaded.config.max_output_tokens }),
    });
    clients.set(modelId, client);
    return client;
  };
}

/** Config "timeouts" as createModelClient options; a missing one keeps the adapters' default. */
function timeoutOptions(timeouts: TimeoutsConfig | undefined): {
  firstByteTimeoutMs?: number;
  idleTimeoutMs?: number;
  requestTimeoutMs?: number;
} {
  return {
    ...(timeouts?.first_byte_ms === undefined ? {} : { firstByteTimeoutMs: timeouts.first_byte_ms }),
    ...(timeouts?.idle_ms === undefined ? {} : { idleTimeoutMs: timeouts.idle_ms }),
    ...(timeouts?.request_ms === undefined ? {} : { requestTimeoutMs: timeouts.request_ms }),
  };
}
