/** How much of a file's start to inspect when deciding whether it is text. */
export const BINARY_SNIFF_BYTES = 8192;

/**
 * Whether a file's first bytes look like binary data: any NUL byte, or mostly control characters.
 * Invalid UTF-8 alone is not enough, so Latin-1 text still reads as text.
 */
export function looksBinary(sample: Uint8Array): boolean {
  if (sample.length === 0) return false;
  let control = 0;
  for (const byte of sample) {
    if (byte === 0) return true;
    // Tab, newline, form feed, carriage return, escape and backspace are common in text and logs.
    if (byte < 32 && byte !== 9 && byte !== 10 && byte !== 12 && byte !== 13 && byte !== 27 && byte !== 8) {
      control += 1;
    }
  }
  return control / sample.length > 0.3;
}
