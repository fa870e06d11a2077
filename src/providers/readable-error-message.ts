import { parseJsonLoosely } from "./read-error-body.js";

const MAX_LENGTH = 400;
/** Control characters left after whitespace is flattened (escape sequences, bells, C1 controls). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

/** A body's control character written out (`\u001b`), so the message cannot restyle a terminal (a fuzz find). */
function visibleControl(char: string): string {
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

/**
 * The provider's own words from a failure body, for people: `invalid_request_error: prompt is too
 * long: 219898 tokens > 200000 maximum` rather than the whole JSON. Nested gateway bodies (an error
 * inside `metadata.raw`) give their innermost message. Falls back to the body itself, HTML tags
 * stripped and cut to a readable length. Control characters are written out as `\u001b`.
 */
export function readableErrorMessage(body: string): string {
  const parsed = parseJsonLoosely(body);
  const found = parsed === undefined ? undefined : innermostMessage(parsed, 0);
  const text = found ?? body.replace(/<[^>]*>/g, " ");
  const flat = text.replace(/\s+/g, " ").replace(CONTROL, visibleControl).trim();
  if (flat === "") return "(no body)";
  return flat.length > MAX_LENGTH ? `${flat.slice(0, MAX_LENGTH)}…` : flat;
}

function innermostMessage(value: unknown, depth: number): string | undefined {
  if (depth > 8 || typeof value !== "object" || value === null) return undefined;
  if (Array.isArray(value)) return value.map((item) => innermostMessage(item, depth + 1)).find(Boolean);
  const record = value as Record<string, unknown>;
  for (const key of ["error", "metadata", "raw", "detail"]) {
    const nested = nestedValue(record[key]);
    const inner = nested === undefined ? undefined : innermostMessage(nested, depth + 1);
    if (inner !== undefined) return inner;
  }
  const message = [record.message, record.detail, record.error].find((item) => typeof item === "string");
  if (typeof message !== "string" || message.trim() === "") return undefined;
  const kind = [record.type, record.code, record.status].find((item) => typeof item === "string");
  return typeof kind === "string" && kind !== "error" && !message.includes(kind)
    ? `${kind}: ${message}`
    : message;
}

/** A field that is an object, or a string holding JSON (gateways nest bodies as strings). */
function nestedValue(value: unknown): unknown {
  if (typeof value === "object" && value !== null) return value;
  if (typeof value === "string" && /^\s*[[{]/.test(value)) return parseJsonLoosely(value);
  return undefined;
}
