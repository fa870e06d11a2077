/**
 * Text as restored facts, the claim check and `panto fidelity` compare it: lower case, no quotes
 * or backticks, no leading "./", single spaces.
 */
export function normaliseForMatch(text: string): string {
  return text
    .toLowerCase()
    .replace(/[`'"]/g, "")
    .replace(/(^|\s)\.\//g, "$1")
    .replace(/\s+/g, " ")
    .trim();
}
