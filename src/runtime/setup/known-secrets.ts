import type { ProviderConfig } from "../../config/index.js";
import { BUILT_IN_PROVIDERS } from "../../providers/model-catalog.js";
import { looksSecretName, type SecretRedactor } from "../../secrets/index.js";

/** Registers the API keys of every built-in provider found in the environment. */
export function addEnvironmentSecrets(redactor: SecretRedactor, env: NodeJS.ProcessEnv): void {
  for (const provider of Object.values(BUILT_IN_PROVIDERS)) {
    for (const name of provider.keyEnv) redactor.add(name, env[name]);
  }
}

/**
 * Registers what config "providers" makes secret: the variable each `api_key_env` names, and the
 * value of every header whose name looks secret (Authorization, x-api-key, ...), also without its
 * scheme ("Bearer TOKEN" -> TOKEN), as a server may echo the token alone.
 */
export function addConfigSecrets(
  redactor: SecretRedactor,
  providers: Record<string, ProviderConfig> | undefined,
  env: NodeJS.ProcessEnv,
): void {
  for (const [providerName, provider] of Object.entries(providers ?? {})) {
    if (provider.api_key_env !== undefined) redactor.add(provider.api_key_env, env[provider.api_key_env]);
    for (const [header, value] of Object.entries(provider.headers ?? {})) {
      if (!looksSecretName(header)) continue;
      const label = `providers.${providerName}.headers.${header}`;
      redactor.add(label, value);
      const token = /^\S+\s+(\S+)$/.exec(value.trim())?.[1];
      redactor.add(label, token);
    }
  }
}
