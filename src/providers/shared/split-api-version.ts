/**
 * Splits a trailing API-version segment off a base URL: "http://h:1/v1beta" -> { base: "http://h:1",
 * version: "v1beta" }. SDKs that append the version themselves (Anthropic adds /v1, Gemini adds
 * /v1beta) would otherwise request ".../v1/v1/messages" when a user's base URL already ends in it.
 */
export function splitApiVersion(
  baseURL: string,
  versions: readonly string[],
): { base: string; version?: string } {
  const trimmed = baseURL.replace(/\/+$/, "");
  for (const version of versions) {
    if (trimmed.endsWith(`/${version}`)) return { base: trimmed.slice(0, -version.length - 1), version };
  }
  return { base: trimmed };
}
