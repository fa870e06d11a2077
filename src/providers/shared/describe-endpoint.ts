/**
 * "host:port" of a base URL, the port filled in from the scheme when the URL leaves it out. Never
 * the user info, path or query string, where keys sometimes travel. Undefined for an unparsable URL.
 */
export function describeEndpoint(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    const port = parsed.port !== "" ? parsed.port : parsed.protocol === "http:" ? "80" : "443";
    return `${parsed.hostname}:${port}`;
  } catch {
    return undefined;
  }
}
