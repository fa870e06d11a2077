/**
 * A Markdown file split into its YAML front matter and its body, or why it could not be: `line` is
 * the 1-based line of the file the problem is on, `key` the front matter key, when known.
 */
export type FrontMatter =
  | { ok: true; data: Record<string, unknown>; body: string }
  | { ok: false; message: string; line?: number; key?: string };

/** The opening fence, which must be the file's first line. */
const OPENING = /^---[ \t]*\r?\n/;
/** The closing fence on a line of its own. */
const CLOSING = /^---[ \t]*$/m;
/** `key: value` at the start of a line, as the lenient reading takes it. */
const PLAIN_PAIR = /^([A-Za-z][\w-]*):[ \t]*(.*?)[ \t]*$/;

/**
 * Splits `text` (a command or SKILL.md file) into its front matter and body. Without an opening
 * `---` line the whole text is the body. The front matter is read as YAML (the `yaml` package,
 * loaded only when a file has front matter); when that fails only on an `argument-hint` such as
 * `[file] [line]` (Claude Code's commands have them), that value is taken as typed. Anything else
 * YAML rejects is an error with its line.
 */
export async function parseFrontMatter(text: string): Promise<FrontMatter> {
  const source = text.startsWith("\uFEFF") ? text.slice(1) : text;
  const opening = OPENING.exec(source);
  if (opening === null) return { ok: true, data: {}, body: source };
  const rest = source.slice(opening[0].length);
  const closing = CLOSING.exec(rest);
  if (closing === null)
    return {
      ok: false,
      message: "the front matter opened by --- on line 1 is never closed by a --- line",
      line: 1,
    };
  const yamlText = rest.slice(0, closing.index);
  const body = rest.slice(closing.index + closing[0].length).replace(/^\r?\n/, "");
  const simple = simplePairs(yamlText);
  if (simple !== undefined) return { ok: true, data: simple, body };
  const parsed = await parseYaml(yamlText);
  if (parsed.ok) return { ok: true, data: parsed.data, body };
  const plain = await plainPairs(yamlText);
  if (plain !== undefined) return { ok: true, data: plain, body };
  // The front matter starts on the file's second line.
  return {
    ok: false,
    message: parsed.message,
    ...(parsed.line === undefined ? {} : { line: parsed.line + 1 }),
  };
}

/** A value YAML reads as this very text: no quoting, flow, comment, block or alias syntax, not a number, boolean or null. */
const SIMPLE_PAIR = /^([A-Za-z][\w-]*): +(.*?)[ \t]*$/;
const PLAIN_TEXT = /^[A-Za-z(/][^'"#{}[\]|>&*!%@`]*$/;
const NOT_TEXT = /^(?:true|false|null|yes|no|on|off|y|n|~)$/i;

/**
 * The front matter when every line is `key: text` that YAML would read as that same text (most
 * command and skill files): read without loading the YAML parser, which costs more start-up time
 * than everything else here. Undefined for anything else.
 */
function simplePairs(yamlText: string): Record<string, unknown> | undefined {
  const data: Record<string, unknown> = {};
  for (const line of yamlText.split(/\r?\n/)) {
    if (line.trim() === "") continue;
    const match = SIMPLE_PAIR.exec(line);
    const key = match?.[1];
    const value = match?.[2] ?? "";
    if (key === undefined || Object.hasOwn(data, key)) return undefined;
    if (!PLAIN_TEXT.test(value) || NOT_TEXT.test(value) || value.includes(": ") || value.endsWith(":"))
      return undefined;
    data[key] = value;
  }
  return data;
}

type YamlResult = { ok: true; data: Record<string, unknown> } | { ok: false; message: string; line?: number };

async function parseYaml(yamlText: string): Promise<YamlResult> {
  if (yamlText.trim() === "") return { ok: true, data: {} };
  const yaml = await import("yaml");
  // The bundled CLI sees the package's CommonJS exports under `default`; tsc's output, as named ones.
  const { parseDocument } = yaml.default ?? yaml;
  const document = parseDocument(yamlText, { uniqueKeys: true });
  const [error] = document.errors;
  if (error !== undefined)
    return {
      ok: false,
      message: `invalid YAML front matter: ${firstLine(error.message)}`,
      ...(error.linePos === undefined ? {} : { line: error.linePos[0].line }),
    };
  let data: unknown;
  try {
    // Parsing succeeded, yet building the value can still fail (an alias to no anchor: a fuzz find).
    data = document.toJS({ maxAliasCount: 100 });
  } catch (error) {
    return {
      ok: false,
      message: `invalid YAML front matter: ${firstLine(String((error as Error).message))}`,
    };
  }
  if (data === null || data === undefined) return { ok: true, data: {} };
  if (typeof data !== "object" || Array.isArray(data))
    return { ok: false, message: "the front matter must be a list of key: value lines", line: 1 };
  return { ok: true, data: data as Record<string, unknown> };
}

/** Keys whose value is read as typed when YAML rejects it, as Claude Code reads them. */
const TEXT_AS_TYPED = new Set(["argument-hint"]);

/**
 * The front matter read line by line, when every non-blank, non-comment line is a `key: value`
 * pair (no key twice) that YAML accepts alone, or one of TEXT_AS_TYPED (taken as typed); else undefined.
 */
async function plainPairs(yamlText: string): Promise<Record<string, unknown> | undefined> {
  const data: Record<string, unknown> = {};
  for (const line of yamlText.split(/\r?\n/)) {
    if (line.trim() === "" || line.trimStart().startsWith("#")) continue;
    const match = PLAIN_PAIR.exec(line);
    const key = match?.[1];
    if (key === undefined || Object.hasOwn(data, key)) return undefined;
    const alone = await parseYaml(line);
    if (alone.ok) data[key] = alone.data[key];
    else if (TEXT_AS_TYPED.has(key)) data[key] = match?.[2] ?? "";
    else return undefined;
  }
  return data;
}

/** The parser's message, one line, with control characters escaped: it may quote the file's text (a fuzz find). */
function firstLine(message: string): string {
  const line = (message.split("\n")[0] ?? message).replace(/ at line \d+, column \d+:?$/, "");
  return line.replace(
    // biome-ignore lint/suspicious/noControlCharactersInRegex: escaping control characters is the point.
    /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/**
 * The value of a text key: trimmed text, or a number or boolean as written; a YAML list of texts
 * (`argument-hint: [file]` is one) comes back in brackets as it was typed. Undefined when absent.
 */
export function frontMatterText(data: Record<string, unknown>, key: string): string | undefined | Error {
  const value = data[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string") return value.trim();
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value) && value.every((item) => typeof item === "string"))
    return value.map((item) => `[${item}]`).join(" ");
  return new Error(`"${key}" must be text`);
}

/** A list of names: a YAML list of texts, or one text of names separated by commas or spaces. */
export function frontMatterList(data: Record<string, unknown>, key: string): string[] | undefined | Error {
  const value = data[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string") return splitNames(value);
  if (Array.isArray(value) && value.every((item) => typeof item === "string"))
    return value.flatMap((item) => splitNames(item));
  return new Error(`"${key}" must be a list of names (a YAML list, or names separated by commas)`);
}

/** "Read, Bash(git add:*), Grep" -> ["Read", "Bash(git add:*)", "Grep"]: commas and spaces split, outside parentheses. */
function splitNames(text: string): string[] {
  const names: string[] = [];
  let current = "";
  let depth = 0;
  for (const char of text) {
    if (char === "(") depth += 1;
    if (char === ")") depth = Math.max(0, depth - 1);
    if (depth === 0 && (char === "," || /\s/.test(char))) {
      if (current.trim() !== "") names.push(current.trim());
      current = "";
    } else current += char;
  }
  if (current.trim() !== "") names.push(current.trim());
  return names;
}
