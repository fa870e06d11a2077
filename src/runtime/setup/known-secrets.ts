import type { ProviderConfig } from "../../config/index.js";
import type { McpServerSpec } from "../../mcp/index.js";
import { BUILT_IN_PROVIDERS } from "../../providers/model-catalog.js";
import { looksSecretName, type SecretRedactor, urlSecrets } from "../../secrets/index.js";

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
    addSecretHeaders(redactor, `providers.${providerName}.headers`, provider.headers);
  }
}

/** Every header whose name looks secret, also without its scheme ("Bearer TOKEN" -> TOKEN). */
function addSecretHeaders(
  redactor: SecretRedactor,
  prefix: string,
  headers: Record<string, string> | undefined,
): void {
  for (const [header, value] of Object.entries(headers ?? {})) {
    if (!looksSecretName(header)) continue;
    const label = `${prefix}.${header}`;
    redactor.add(label, value);
    redactor.add(label, /^\S+\s+(\S+)$/.exec(value.trim())?.[1]);
  }
}

/**
 * Registers what an MCP server's settings make secret, so that a failing server's URL or an
 * echoing one never prints its token: for a server panto starts, each environment value whose name
 * looks secret; for one it connects to, each such header, the URL's password and every query
 * parameter whose name looks secret (`?token=`, `api_key=`...), as written and decoded.
 */
export function addMcpSecrets(redactor: SecretRedactor, specs: readonly McpServerSpec[]): void {
  for (const { name, transport } of specs) {
    const prefix = `mcp_servers.${name}`;
    if (transport.type === "stdio") {
      for (const [key, value] of Object.entries(transport.env))
        if (looksSecretName(key)) redactor.add(`${prefix}.env.${key}`, value);
      continue;
    }
    addSecretHeaders(redactor, `${prefix}.headers`, transport.headers);
    for (const { part, value } of urlSecrets(transport.url)) redactor.add(`${prefix}.url.${part}`, value);
  }
}
