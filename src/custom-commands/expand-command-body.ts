/** `$ARGUMENTS`, or `$1`..`$9` (one digit: `$10` is `$1` followed by "0"). */
const PLACEHOLDER = /\$(ARGUMENTS|[1-9])/g;

/**
 * The command's prompt for the arguments typed after it: `$ARGUMENTS` becomes all of them as
 * typed, `$1`..`$9` the first nine words (quotes group words: `"two words"`), missing ones empty.
 * A body with no placeholder gets the arguments appended after a blank line, so none is lost.
 */
export function expandCommandBody(body: string, args: string): string {
  const words = splitArguments(args);
  let used = false;
  const expanded = body.replace(PLACEHOLDER, (_match, which: string) => {
    used = true;
    return which === "ARGUMENTS" ? args : (words[Number(which) - 1] ?? "");
  });
  const text = expanded.trim();
  return used || args === "" ? text : `${text}\n\n${args}`;
}

/** Words separated by whitespace; "double" or 'single' quotes keep spaces inside one word. */
export function splitArguments(args: string): string[] {
  const words: string[] = [];
  for (const match of args.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g))
    words.push(match[1] ?? match[2] ?? match[3] ?? "");
  return words;
}
