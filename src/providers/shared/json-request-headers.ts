import type { AdapterOptions } from "../adapter-options.js";
import { KEYLESS_PLACEHOLDER } from "./sdk-client-options.js";

/**
 * The headers of a JSON request posted through postJson, as the vendor SDKs sent them less their
 * telemetry: JSON both ways, the key as a bearer token (a keyless local endpoint gets a
 * placeholder), the wire's own headers, then the configured headers, which win over ours whatever
 * their case.
 */
export function jsonRequestHeaders(
  options: AdapterOptions,
  wireHeaders: Record<string, string> = {},
): Record<string, string> {
  const headers: Record<string, string> = {
    accept: "application/json",
    "content-type": "application/json",
    "user-agent": "panto",
    ...wireHeaders,
    authorization: `Bearer ${options.apiKey ?? KEYLESS_PLACEHOLDER}`,
  };
  for (const [name, value] of Object.entries(options.headers ?? {})) headers[name.toLowerCase()] = value;
  return headers;
}
