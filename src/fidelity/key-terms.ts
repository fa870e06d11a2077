/** Common words that say nothing about what an instruction asks for. */
const STOP_WORDS = new Set(
  (
    "about above after again also always because been before being below between both cannot could " +
    "does doing done down during each even ever every first from further have having here into just " +
    "keep like make more most much must need needs never next only other ought over please really " +
    "same should some still such than that their them then there these they thing things this those " +
    "through under until upon very want were what when where which while will with within without " +
    "would your yours it's that's don't didn't doesn't isn't won't can't let's i'd i'll i'm you're"
  ).split(" "),
);

/** Letters, digits and the characters identifiers and paths are made of. */
const TOKEN = /[\p{L}\p{N}_./'-]+/gu;

/**
 * The terms an instruction is scored by: lower-cased words of four or more letters that are not
 * common words, and every token holding a digit, "/", ".", "_" or "-" inside it (paths, flags,
 * identifiers, version numbers), each once. A plural "s" is dropped from words longer than four
 * letters, so "tests" and "test" match.
 */
export function keyTerms(text: string): string[] {
  const terms = new Set<string>();
  for (const token of tokens(text)) {
    const identifier = /[\p{N}/._-]/u.test(token);
    if (identifier ? token.length >= 2 : token.length >= 4 && !STOP_WORDS.has(token)) terms.add(stem(token));
  }
  return [...terms];
}

/** The stemmed tokens of `text`, for looking key terms up. */
export function termSet(text: string): Set<string> {
  return new Set(tokens(text).map(stem));
}

function tokens(text: string): string[] {
  return (text.toLowerCase().match(TOKEN) ?? [])
    .map((token) => token.replace(/^'+|^\.\/|[.'-]+$/g, ""))
    .filter((token) => token !== "");
}

function stem(token: string): string {
  return token.length > 4 && token.endsWith("s") && !token.endsWith("ss") && !/[./_]/.test(token)
    ? token.slice(0, -1)
    : token;
}
