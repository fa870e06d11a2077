/**
 * Parses streamed tool-call arguments. Models sometimes emit malformed or non-object JSON; rather
 * than failing the whole response, the raw text is kept under `_raw` so the tool layer can report it.
 */
export function parseToolArguments(raw: string): Record<string, unknown> {
  if (raw.trim() === "") return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) {
      return parsed as Record<string, unknown>;
    }
  } catch {
    // Fall through: keep what the model wrote.
  }
  return { _raw: raw };
}
