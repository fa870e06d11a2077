/** Values shorter than this are never treated as secrets: redacting "a" or "true" would mangle normal text. */
export const MIN_SECRET_LENGTH = 8;

/** Replaces text with another; the identity when nothing is secret. */
export type Redact = (text: string) => string;

/**
 * Replaces every known secret value in text with `[redacted NAME]`, NAME saying where the value
 * came from (a variable or a config header), never part of the value. Each value is also matched
 * in the forms it takes inside JSON strings and URLs, since error bodies and session lines carry
 * it that way, and in the cheap transforms a command can print it in (base64, hex, reversed: see
 * transformedForms), since under `--sandbox full` a command reads what the user can. Secrets can
 * be added after construction (config is read after the output streams are wrapped); `redact`
 * always uses the current set.
 */
export class SecretRedactor {
  readonly #labels = new Map<string, string>();
  /** Forms that tools print wrapped (base64 at 76 columns, `xxd -p` at 60): matched across line breaks. */
  readonly #wrappable = new Set<string>();
  #pattern: RegExp | undefined;

  /** Registers `value` under `name`; values shorter than MIN_SECRET_LENGTH are ignored. */
  add(name: string, value: string | undefined): void {
    const trimmed = value?.trim();
    if (trimmed === undefined || trimmed.length < MIN_SECRET_LENGTH) return;
    // The label goes into JSON lines and terminals as is: keep it to plain characters.
    const label = name.replace(/[^\w.-]/g, "_");
    for (const form of encodedForms(trimmed)) {
      if (!this.#labels.has(form)) this.#labels.set(form, label);
    }
    for (const form of transformedForms(trimmed)) {
      if (this.#labels.has(form)) continue;
      this.#labels.set(form, label);
      this.#wrappable.add(form);
    }
    this.#pattern = undefined;
  }

  /** Whether `value` is exactly one of the registered secrets. */
  isSecret(value: string): boolean {
    return this.#labels.has(value.trim());
  }

  get size(): number {
    return this.#labels.size;
  }

  readonly redact: Redact = (text) => {
    if (this.#labels.size === 0 || text === "") return text;
    this.#pattern ??= alternation([...this.#labels.keys()]);
    const pattern = this.#pattern;
    const replace = (part: string) =>
      part.replace(pattern, (match) => `[redacted ${this.#labels.get(match) ?? "secret"}]`);
    const replaced = replace(text);
    if (this.#wrappable.size === 0 || !replaced.includes("\n")) return replaced;
    // Wrapped encodings: a run of base64 or hex characters broken by line breaks, looked at joined.
    return replaced.replace(WRAPPED_RUN, (run) => {
      const joined = run.replace(/\r?\n/g, "");
      const redacted = replace(joined);
      return redacted === joined ? run : redacted;
    });
  };
}

/** Lines of base64 or hex characters, as `base64` and `xxd -p` wrap them (two lines at least). */
const WRAPPED_RUN = /[A-Za-z0-9+/=_-]{12,}(?:\r?\n[A-Za-z0-9+/=_-]+)+/g;

/** The shortest transformed form worth matching: shorter runs of base64 or hex occur by chance. */
const MIN_TRANSFORMED_LENGTH = 12;

/**
 * The value reversed (`rev`), in hex (lower and upper case: `xxd -p`, `od`-free hexdumps), and in
 * base64 and base64url: whole (`base64 <<< "$KEY"` less its newline), and as it appears inside a
 * longer encoded text (`echo "key=$KEY" | base64`), where its encoding depends on its offset modulo
 * 3: for each offset, the characters that only the value's bytes decide. The first and last few
 * characters of such an embedded run stay visible (up to 3 bytes of the value at each end).
 */
function transformedForms(value: string): string[] {
  const bytes = Buffer.from(value, "utf8");
  const hex = bytes.toString("hex");
  const forms = new Set([[...value].reverse().join(""), hex, hex.toUpperCase()]);
  for (let offset = 0; offset < 3; offset += 1) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString("base64");
    const whole = offset === 0 ? [encoded, encoded.replace(/=+$/, "")] : [];
    // With `offset` bytes before it, the value starts in the first group: skip that group, and
    // the last one, which the bytes after the value share.
    const start = offset === 0 ? 0 : 4;
    const end = (offset + bytes.length) % 3 === 0 ? encoded.length : encoded.length - 4;
    const inner = encoded.slice(start, end);
    for (const form of [...whole, inner]) {
      forms.add(form);
      forms.add(form.replace(/\+/g, "-").replace(/\//g, "_"));
    }
  }
  return [...forms].filter((form) => form.length >= MIN_TRANSFORMED_LENGTH && form !== value);
}

/** The value as written, as it appears inside a JSON string, and URL-encoded (query strings). */
function encodedForms(value: string): string[] {
  const forms = new Set([value, JSON.stringify(value).slice(1, -1), encodeURIComponent(value)]);
  return [...forms];
}

/** One regular expression matching any of the values, longest first so a longer secret wins. */
function alternation(values: string[]): RegExp {
  const sorted = [...values].sort((a, b) => b.length - a.length);
  return new RegExp(sorted.map((value) => value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|"), "g");
}
