import type { ImportFormat, SourceLine } from "./import-types.js";

/** How many leading lines are looked at to tell the formats apart. */
const SNIFF_LINES = 50;

const CLAUDE_TYPES = new Set(["user", "assistant", "system", "summary"]);
const CODEX_TYPES = new Set(["session_meta", "response_item", "turn_context", "event_msg", "compacted"]);

/**
 * The format of a source file, from its content (never its name): pi's line 1 is a `session`
 * header with a `timestamp` (panto's own has `created`); Codex wraps each item as
 * `{timestamp, type, payload}` with its own item types; Claude Code's lines carry `sessionId` and
 * a `message` or a `summary`. Undefined when none fits (panto's own sessions included).
 */
export function detectFormat(lines: readonly SourceLine[]): ImportFormat | undefined {
  const values = lines.slice(0, SNIFF_LINES).flatMap((line) => ("value" in line ? [line.value] : []));
  const first = values[0];
  if (first === undefined) return undefined;
  if (first.type === "session" && typeof first.timestamp === "string" && first.created === undefined)
    return "pi";
  if (values.some((value) => CODEX_TYPES.has(String(value.type)) && isObject(value.payload))) return "codex";
  if (isLegacyCodex(first, values)) return "codex";
  if (values.some((value) => CLAUDE_TYPES.has(String(value.type)) && isClaudeLine(value)))
    return "claude-code";
  return undefined;
}

function isClaudeLine(value: Record<string, unknown>): boolean {
  if (value.type === "summary")
    return typeof value.summary === "string" && typeof value.leafUuid === "string";
  return typeof value.sessionId === "string" && typeof value.uuid === "string";
}

/** Codex before mid 2025: line 1 `{id, timestamp, instructions?}`, then bare response items. */
function isLegacyCodex(first: Record<string, unknown>, values: readonly Record<string, unknown>[]): boolean {
  if (typeof first.id !== "string" || typeof first.timestamp !== "string" || first.type !== undefined)
    return false;
  return values.some(
    (value) =>
      (value.type === "message" && typeof value.role === "string") ||
      value.type === "function_call" ||
      value.type === "reasoning",
  );
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
