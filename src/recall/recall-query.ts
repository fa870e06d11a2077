/** One thing a search looks for: a word (any order) or a quoted phrase. */
export interface RecallTerm {
  /** As the query wrote it (a phrase without its quotes). */
  text: string;
  /** Matches the term in lower-cased text. */
  pattern: RegExp;
  /**
   * ASCII strings that every line holding the term holds in its raw JSON, lower-cased: the longest
   * ASCII run of each word, JSON-escaped. Empty when a word has no ASCII to look for (then every
   * line may hold it).
   */
  needles: string[];
  /**
   * Whether `needles[0]` is how the term's first word starts in raw JSON: then an occurrence of it
   * at no raw word start means the term is at no word start in the text either.
   */
  startNeedle: boolean;
}

/** A parsed query: its terms, best matched all together, in any order. */
export interface RecallQuery {
  text: string;
  terms: RecallTerm[];
}

/** At most this many terms count; the rest of a long query is ignored. */
export const MAX_TERMS = 12;
/** Words this long or longer match by their stem too. */
const STEM_FROM = 5;

/**
 * Parses a search: words, matched in any order and case-insensitively as parts of words (`parse`
 * finds "parser"; a word of five letters or more also by its stem, a trailing "s", "es", "ed" or
 * "ing" dropped, so "failing" finds "failed"), and "quoted phrases", matched case-insensitively as
 * they are, any run of spaces or line breaks standing for any other.
 */
export function parseRecallQuery(text: string): RecallQuery {
  const terms: RecallTerm[] = [];
  const seen = new Set<string>();
  for (const match of text.matchAll(/"([^"]*)"|(\S+)/g)) {
    const phrase = match[1];
    const words = (phrase ?? match[2] ?? "").toLowerCase().split(/\s+/).filter(Boolean);
    if (words.length === 0) continue;
    const key = words.join(" ");
    if (seen.has(key) || terms.length >= MAX_TERMS) continue;
    seen.add(key);
    terms.push(phrase === undefined ? wordTerm(words[0] as string) : phraseTerm(phrase.trim(), words));
  }
  return { text: text.trim(), terms };
}

function wordTerm(word: string): RecallTerm {
  const stem = stemOf(word);
  return { text: word, pattern: new RegExp(escapeRegExp(stem), "g"), ...needlesOf([stem]) };
}

function phraseTerm(text: string, words: readonly string[]): RecallTerm {
  return {
    text,
    pattern: new RegExp(words.map(escapeRegExp).join("\\s+"), "g"),
    ...needlesOf(words),
  };
}

/** The word with a trailing "ing", "ed", "es" or "s" dropped, when it is long enough to keep meaning. */
export function stemOf(word: string): string {
  if (word.length < STEM_FROM || !/[a-z]$/.test(word)) return word;
  for (const suffix of ["ing", "ed", "es", "s"])
    if (word.endsWith(suffix) && word.length - suffix.length >= 3) return word.slice(0, -suffix.length);
  return word;
}

function needlesOf(words: readonly string[]): Pick<RecallTerm, "needles" | "startNeedle"> {
  let startNeedle = false;
  const needles = words.flatMap((word, index) => {
    const escaped = JSON.stringify(word).slice(1, -1);
    const runs = escaped.match(/[\x20-\x7e]+/g) ?? [];
    const longest = runs.reduce((best, run) => (run.length > best.length ? run : best), "");
    if (index === 0) startNeedle = longest !== "" && escaped.startsWith(longest);
    return longest === "" ? [] : [longest];
  });
  return { needles, startNeedle };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
