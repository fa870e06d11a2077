import { createHash } from "node:crypto";
import type { SourceLine } from "./import-types.js";

/** A source file's lines, parsed, and what was wrong with them. */
export interface SourceText {
  lines: SourceLine[];
  sha256: string;
  /** Set when the last line is not whole JSON (the agent was cut off mid-write): it is left out. */
  truncatedLast?: number;
}

/**
 * Splits a JSONL file into parsed lines (blank lines dropped). A last line that does not parse is
 * a write the source agent never finished: reported, not fatal. Any other line that does not parse
 * stays in the list as invalid, for the parser to keep as a note.
 */
export function readSourceLines(bytes: Buffer): SourceText {
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  const texts = bytes
    .toString("utf8")
    .replace(/^\uFEFF/, "")
    .split("\n");
  const lines: SourceLine[] = [];
  let truncatedLast: number | undefined;
  const last = texts.findLastIndex((text) => text.trim() !== "");
  texts.forEach((text, index) => {
    if (text.trim() === "") return;
    const line = index + 1;
    const parsed = parseObject(text);
    if (typeof parsed !== "string") lines.push({ line, value: parsed });
    else if (index === last) truncatedLast = line;
    else lines.push({ line, invalid: text, reason: parsed });
  });
  return { lines, sha256, ...(truncatedLast === undefined ? {} : { truncatedLast }) };
}

/** The line's JSON object, or why it is not one. */
function parseObject(text: string): Record<string, unknown> | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return "not valid JSON";
  }
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : "not a JSON object";
}
