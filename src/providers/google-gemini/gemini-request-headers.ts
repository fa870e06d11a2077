import type { AdapterOptions } from "../adapter-options.js";
import { otherError } from "../provider-error.js";
import { KEYLESS_PLACEHOLDER } from "../shared/index.js";

/**
 * The headers of one Gemini request, as the SDK sent them less its telemetry (x-goog-api-client and
 * its own user-agent): JSON, the key in x-goog-api-key (a keyless proxy gets the placeholder), then
 * the configured headers, which win over ours whatever their case. Never an Authorization header:
 * Google would try the key there as an OAuth token. An ephemeral token (`auth_tokens/...`) works
 * with the Live API only: it is refused before anything is sent, in the SDK's words, and not retried.
 */
export function geminiRequestHeaders(options: AdapterOptions): Record<string, string> {
  const key = options.apiKey ?? KEYLESS_PLACEHOLDER;
  if (key.startsWith("auth_tokens/"))
    throw otherError(options.provider, new Error("Ephemeral tokens are only supported by the live API."));
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "user-agent": "panto",
    "x-goog-api-key": key,
  };
  for (const [name, value] of Object.entries(options.headers ?? {})) headers[name.toLowerCase()] = value;
  return headers;
}
