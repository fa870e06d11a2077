/**
 * The simple commands in a shell command line, for permission rules: `a && b`, `a; b`, `a | b`,
 * `a || b`, `a & b` and line breaks separate commands, and what runs inside `$(…)`, backticks,
 * `( … )` subshells, `{ …; }` groups and `<(…)` counts as commands of its own. Quotes and
 * backslashes are honoured, so `echo "a && b"` is one command. Shell keywords that start a
 * command (`if`, `then`, `do`, `!`, `time`, …) are dropped from its text, and the words that only
 * close a block (`fi`, `done`, `}`) are no command. `complete` is false when the line does not
 * parse (an open quote or bracket): such a line is never allowed by a command rule.
 */
export interface SplitCommand {
  parts: string[];
  complete: boolean;
}

const LEADING_KEYWORDS = new Set(["if", "then", "else", "elif", "do", "while", "until", "!", "time", "{"]);
const CLOSING_WORDS = new Set(["fi", "done", "esac", "}", "then", "else", "do"]);
const ONLY_REDIRECTIONS = /^(?:\d*(?:<<?|>>?|&>>?|<&|>&)\s*\S*\s*)+$/;

export function splitShellCommand(line: string): SplitCommand {
  const state = { parts: [] as string[], complete: true };
  const end = scan(line, 0, undefined, state);
  if (end < line.length) state.complete = false;
  return { parts: state.parts, complete: state.complete };
}

interface ScanState {
  parts: string[];
  complete: boolean;
}

/**
 * Reads commands from `start` until `closer` (")" or "`") or the end; returns the index after the
 * closer. Each finished simple command is pushed to `state.parts`.
 */
function scan(text: string, start: number, closer: ")" | "`" | undefined, state: ScanState): number {
  let current = "";
  let index = start;
  const finish = (): void => {
    pushPart(current, state.parts);
    current = "";
  };
  while (index < text.length) {
    const char = text[index] as string;
    const next = text[index + 1];
    if (char === closer) {
      finish();
      return index + 1;
    }
    if (char === "\\") {
      current += text.slice(index, index + 2);
      index += 2;
      continue;
    }
    if (char === "'") {
      const close = text.indexOf("'", index + 1);
      if (close === -1) {
        state.complete = false;
        current += text.slice(index);
        index = text.length;
        continue;
      }
      current += text.slice(index, close + 1);
      index = close + 1;
      continue;
    }
    if (char === '"') {
      index = doubleQuoted(text, index, state, (piece) => {
        current += piece;
      });
      continue;
    }
    if ((char === "$" || char === "<" || char === ">") && next === "(") {
      const after = scan(text, index + 2, ")", state);
      if (after > text.length || text[after - 1] !== ")") state.complete = false;
      current += text.slice(index, after);
      index = after;
      continue;
    }
    if (char === "`") {
      const after = scan(text, index + 1, "`", state);
      if (text[after - 1] !== "`") state.complete = false;
      current += text.slice(index, after);
      index = after;
      continue;
    }
    if (char === "(" && current.trim() === "") {
      const after = scan(text, index + 1, ")", state);
      if (text[after - 1] !== ")") state.complete = false;
      index = after;
      continue;
    }
    if (char === "#" && (current === "" || /\s$/.test(current))) {
      const lineEnd = text.indexOf("\n", index);
      index = lineEnd === -1 ? text.length : lineEnd;
      continue;
    }
    const operator = operatorAt(text, index, current);
    if (operator > 0) {
      finish();
      index += operator;
      continue;
    }
    current += char;
    index += 1;
  }
  finish();
  if (closer !== undefined) state.complete = false;
  return index + 1;
}

/** The length of a command separator at `index` (0 if none): `&&`, `||`, `|&`, `|`, `;`, `&`, newline. */
function operatorAt(text: string, index: number, current: string): number {
  const char = text[index];
  const next = text[index + 1];
  if (char === "\n" || char === ";") return next === ";" ? 2 : 1;
  if (char === "|") return next === "|" || next === "&" ? 2 : 1;
  if (char === "&") {
    if (next === "&") return 2;
    // `&>file` and `2>&1` are redirections, not a background separator.
    if (next === ">" || current.endsWith(">") || current.endsWith("<")) return 0;
    return 1;
  }
  return 0;
}

/** A double-quoted string from `start` (its `"`): `$(…)` and backticks inside still run commands. */
function doubleQuoted(
  text: string,
  start: number,
  state: ScanState,
  append: (piece: string) => void,
): number {
  let index = start + 1;
  append('"');
  while (index < text.length) {
    const char = text[index] as string;
    if (char === "\\") {
      append(text.slice(index, index + 2));
      index += 2;
      continue;
    }
    if (char === '"') {
      append('"');
      return index + 1;
    }
    if (char === "$" && text[index + 1] === "(") {
      const after = scan(text, index + 2, ")", state);
      append(text.slice(index, after));
      index = after;
      continue;
    }
    if (char === "`") {
      const after = scan(text, index + 1, "`", state);
      append(text.slice(index, after));
      index = after;
      continue;
    }
    append(char);
    index += 1;
  }
  state.complete = false;
  return index;
}

/** Adds one simple command, without its leading keywords; block endings and bare redirections are none. */
function pushPart(raw: string, parts: string[]): void {
  let words = raw.trim();
  for (;;) {
    const first = /^(\S+)(\s+|$)/.exec(words);
    if (first === null || !LEADING_KEYWORDS.has(first[1] as string)) break;
    words = words.slice(first[0].length);
  }
  if (words === "" || CLOSING_WORDS.has(words) || ONLY_REDIRECTIONS.test(words)) return;
  parts.push(words);
}
