/** Lines longer than this are cut so one minified line cannot flood the context. */
export const MAX_LINE_CHARS = 2000;

/** One line in `cat -n` style: the 1-based number right-aligned to six places, a tab, the text. */
export function numberLine(lineNumber: number, text: string): string {
  return `${String(lineNumber).padStart(6, " ")}\t${cutLine(text)}`;
}

/** Cuts an over-long line, saying how much was left out. */
export function cutLine(text: string, max = MAX_LINE_CHARS): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}… [line cut: ${text.length - max} more characters]`;
}
