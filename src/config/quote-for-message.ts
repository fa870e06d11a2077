/**
 * Text from a config file as it is quoted in an error message: in double quotes, with quotes,
 * backslashes, line breaks and every control character escaped, so a key holding a newline or an
 * escape sequence cannot split a problem over two lines or restyle the terminal (a fuzz find).
 */
export function quoteForMessage(text: string): string {
  return JSON.stringify(text).replace(
    /[\u007f-\u009f\u2028\u2029]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
