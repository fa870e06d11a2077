/** A C0 or C1 control character other than line feed and tab, or DEL. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
export const CONTROL_CHARACTER = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

/**
 * The escape sequences panto itself writes to a terminal: SGR styles (bold, dim, italic,
 * underline, strike and colours, also the syntax highlighter's), and the status line's
 * carriage return plus erase-line.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the sequences panto writes.
const OWN_SEQUENCES = /\u001b\[(?:[0-9]{1,3}(?:;[0-9]{1,3})*)?m|\r\u001b\[2K/g;

/**
 * The first control character in `written` that panto did not put there as one of its own
 * sequences (line feeds and tabs are text), with some context, or undefined when there is none.
 * An input-supplied colour sequence would pass for one of panto's; every other sequence (cursor
 * moves, erase, OSC titles and links, bells, bare carriage returns, C1 controls) is caught.
 */
export function strayControl(written: string): string | undefined {
  const rest = written.replace(OWN_SEQUENCES, "");
  const match = CONTROL_CHARACTER.exec(rest);
  if (match === null) return undefined;
  return JSON.stringify(rest.slice(Math.max(0, match.index - 20), match.index + 20));
}
