/** Ranges of code points a terminal draws two columns wide (CJK, Hangul, full-width forms, most emoji). */
const WIDE: ReadonlyArray<readonly [number, number]> = [
  [0x1100, 0x115f],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe30, 0xfe4f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x1f300, 0x1f64f],
  [0x1f900, 0x1f9ff],
  [0x20000, 0x3fffd],
];

/** Combining marks and zero-width characters: drawn on top of the character before them. */
const ZERO: ReadonlyArray<readonly [number, number]> = [
  [0x0300, 0x036f],
  [0x200b, 0x200f],
  [0xfe00, 0xfe0f],
];

/** Columns one character takes in a terminal: 0, 1 or 2. Close enough for wrapping; not a full wcwidth. */
export function charWidth(char: string): number {
  const code = char.codePointAt(0) ?? 0;
  if (code < 0x20 || (code >= 0x7f && code < 0xa0)) return 0;
  if (ZERO.some(([low, high]) => code >= low && code <= high)) return 0;
  return WIDE.some(([low, high]) => code >= low && code <= high) ? 2 : 1;
}

/** SGR sequences (colour, bold, dim): they take no room on screen. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: escape sequences start with ESC.
export const STYLE_SEQUENCE = /\u001b\[[0-9;]*m/y;

/** Columns a string takes, style sequences not counted. */
export function textWidth(text: string): number {
  let width = 0;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: escape sequences start with ESC.
  for (const char of text.replace(/\u001b\[[0-9;]*m/g, "")) width += charWidth(char);
  return width;
}

/** Cuts text (plain, no style sequences) to at most `width` columns, ending in "…" when cut. */
export function fitWidth(text: string, width: number): string {
  if (textWidth(text) <= width) return text;
  let out = "";
  let used = 0;
  for (const char of text) {
    const next = charWidth(char);
    if (used + next > width - 1) break;
    out += char;
    used += next;
  }
  return `${out}…`;
}
