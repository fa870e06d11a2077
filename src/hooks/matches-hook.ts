/** A bare name or `|`-separated names ("bash", "Edit|Write"); anything else is a regular expression. */
const NAME_LIST = /^[\w-]+(?:\|[\w-]+)*$/;

/**
 * Whether `matcher` selects `subject` (a tool name, trigger or source), the way Claude Code reads
 * matchers: absent, "" and "*" match everything, names match whole (case-insensitively, so "Bash"
 * selects panto's `bash`), and anything else is a regular expression that must match the whole subject.
 */
export function matchesHook(matcher: string | undefined, subject: string): boolean {
  if (matcher === undefined || matcher === "" || matcher === "*") return true;
  if (NAME_LIST.test(matcher))
    return matcher.split("|").some((name) => name.toLowerCase() === subject.toLowerCase());
  return new RegExp(`^(?:${matcher})$`, "i").test(subject);
}

/** The problem with a matcher, or undefined when it is usable (checked when config is loaded). */
export function matcherProblem(matcher: string): string | undefined {
  try {
    new RegExp(matcher);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
