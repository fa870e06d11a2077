import { cutLine } from "./number-lines.js";
import { ToolError } from "./tool-error.js";

/** Characters of a matching line shown. */
const MAX_MATCH_LINE_CHARS = 500;

/** A regular expression applied line by line, with a whole-text pre-check where that is exact. */
export interface LineMatcher {
  line: RegExp;
  /**
   * The same pattern in multiline mode. Any line match implies a match of this on the whole text,
   * so a text where it fails can be skipped without splitting. Absent for patterns with lookaround,
   * which could see across line breaks.
   */
  whole?: RegExp;
}

/** Compiles a JavaScript regular expression (unicode mode when it parses so, for \p{...}). */
export function createLineMatcher(pattern: string, ignoreCase: boolean): LineMatcher {
  const flags = ignoreCase ? "i" : "";
  const line = compile(pattern, `${flags}u`) ?? compile(pattern, flags);
  if (line === undefined) {
    const reason = describeSyntaxError(pattern, flags);
    throw new ToolError(`"pattern" is not a valid regular expression: ${reason}`);
  }
  if (/\(\?<?[=!]/.test(pattern)) return { line };
  return { line, whole: new RegExp(pattern, `${line.flags}m`) };
}

/** Up to `limit` "number: text" entries for the lines of `text` that match. */
export function matchLines(text: string, matcher: LineMatcher, limit: number): string[] {
  if (matcher.whole !== undefined && !matcher.whole.test(text)) return [];
  const found: string[] = [];
  let start = 0;
  for (let number = 1; start <= text.length && found.length < limit; number += 1) {
    const newline = text.indexOf("\n", start);
    const end = newline === -1 ? text.length : newline;
    const line = text.slice(start, end).replace(/\r$/, "");
    if (matcher.line.test(line)) found.push(`${number}: ${cutLine(line, MAX_MATCH_LINE_CHARS)}`);
    if (newline === -1) break;
    start = newline + 1;
  }
  return found;
}

function compile(pattern: string, flags: string): RegExp | undefined {
  try {
    return new RegExp(pattern, flags);
  } catch {
    return undefined;
  }
}

function describeSyntaxError(pattern: string, flags: string): string {
  try {
    new RegExp(pattern, flags);
    return "unknown error";
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
