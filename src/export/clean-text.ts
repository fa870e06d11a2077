/** Any character cleanText changes: a surrogate (paired ones are checked again below), a C0 or C1 control. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const NEEDS_CLEANING = /[\uD800-\uDFFF\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;

/**
 * Session text made safe to write into a page: everything from a session is text, never markup.
 * Lone UTF-16 surrogates (JSON allows "\ud800") become U+FFFD, so the page is valid UTF-8; C0
 * controls other than tab, newline and carriage return show as their Unicode control pictures
 * (U+2400 block), and C1 controls as U+FFFD, so none can confuse a parser or a terminal.
 */
export function cleanText(text: string): string {
  if (!NEEDS_CLEANING.test(text)) return text;
  return (
    text
      .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD")
      // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g, (control) =>
        String.fromCharCode(control === "\u007F" ? 0x2421 : 0x2400 + control.charCodeAt(0)),
      )
      .replace(/[\u0080-\u009F]/g, "\uFFFD")
  );
}

const HTML_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Escapes the five characters that matter in HTML text and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character] ?? character);
}

/** A redactor: replaces secrets in a string. The identity when none is given. */
export type Redact = (text: string) => string;

/** Session text as HTML: redacted, cleaned, escaped. Every string from a session goes through this. */
export function htmlText(text: string, redact: Redact): string {
  return escapeHtml(cleanText(redact(text)));
}
