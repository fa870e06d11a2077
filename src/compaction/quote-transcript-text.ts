/**
 * Quoting of message text inside the compaction transcript, so quoted material can never pass for
 * a real turn or for the envelope around it (a tool result that prints `[User]: ...` or
 * `</transcript>` must read as what it is: text inside that tool result).
 *
 * Two rules, both reversible ({@link unquoteTranscriptText} undoes {@link quoteTranscriptText}):
 * - A line whose first non-blank text is a bracketed word label and a colon (`[User]:`,
 *   `[Tool result]:`, `[system]:`: letters and blanks, any case), possibly after
 *   backslashes, gets one more backslash before the bracket: `[User]: hi` -> `\[User]: hi`. Real
 *   markers never start with a backslash.
 * - An envelope tag (`<transcript>`, `</transcript>`, `<previous-summary>`, `</previous-summary>`,
 *   any case) has its `<` written `&lt;`; a tag already written `&lt;` (or `&amp;lt;`, ...) gets one
 *   more `amp;`, so that form stays apart from an escaped real `<`.
 * Lines end at `\n`, `\r`, U+2028 and U+2029; blanks are what `\s` matches on one line.
 */
export function quoteTranscriptText(text: string): string {
  let quoted = text;
  if (quoted.includes("]:")) quoted = quoted.replace(MARKER_LINE, "$1\\$2");
  if (hasTagName(quoted)) quoted = quoted.replace(TAG, quoteTag);
  return quoted;
}

/** The inverse of {@link quoteTranscriptText}: `unquoteTranscriptText(quoteTranscriptText(t)) === t`. */
export function unquoteTranscriptText(text: string): string {
  return text.replace(QUOTED_MARKER_LINE, "$1$2").replace(TAG, unquoteTag);
}

/**
 * Rewrites only the raw (`<`) envelope tags in text that is not otherwise quoted, the same way
 * {@link quoteTranscriptText} does. Text that already went through quoting is left as it is.
 */
export function defuseEnvelopeTags(text: string): string {
  return hasTagName(text) ? text.replace(RAW_TAG, "&lt;$1") : text;
}

/** A blank that does not end a line. */
const BLANK = "[^\\S\\r\\n\\u2028\\u2029]";
/** A bracketed word label and a colon: `[User]:`, `[ tool result ]:`. */
const LABEL = `\\[${BLANK}*[A-Za-z](?:[A-Za-z]|${BLANK})*\\]:`;
/** One line's leading blanks and, after any backslashes, a marker. */
const MARKER_LINE = new RegExp(`^(${BLANK}*)(\\\\*${LABEL})`, "gm");
/** The same with the one backslash quoting added. */
const QUOTED_MARKER_LINE = new RegExp(`^(${BLANK}*)\\\\(\\\\*${LABEL})`, "gm");

/** An envelope tag, raw or already entity-escaped: group 1 the opening, group 2 the rest. */
const TAG = /(<|&(?:amp;)*lt;)(\/?(?:transcript|previous-summary)>)/gi;
const RAW_TAG = /<(\/?(?:transcript|previous-summary)>)/gi;

function quoteTag(_match: string, opening: string, rest: string): string {
  return opening === "<" ? `&lt;${rest}` : `&amp;${opening.slice(1)}${rest}`;
}

function unquoteTag(_match: string, opening: string, rest: string): string {
  return opening.length === 4 ? `<${rest}` : `&${opening.slice(5)}${rest}`;
}

const TAG_NAMES = ["transcript", "previous-summary"];

/**
 * Whether `text` holds `transcript>` or `previous-summary>` in any case: a scan of the `>`
 * characters, several times faster than a case-insensitive regular expression over long tool output.
 */
function hasTagName(text: string): boolean {
  for (let at = text.indexOf(">"); at !== -1; at = text.indexOf(">", at + 1)) {
    for (const name of TAG_NAMES) if (endsWithIgnoringCase(text, at, name)) return true;
  }
  return false;
}

function endsWithIgnoringCase(text: string, end: number, name: string): boolean {
  const start = end - name.length;
  if (start < 0) return false;
  for (let index = 0; index < name.length; index++) {
    // OR-ing 0x20 lower-cases an ASCII letter and keeps "-"; the few other characters it lets
    // through (a carriage return reads as "-") only cost a needless exact search.
    if ((text.charCodeAt(start + index) | 0x20) !== name.charCodeAt(index)) return false;
  }
  return true;
}
