/** Values shorter than this are never treated as secrets: redacting "a" or "true" would mangle normal text. */
export const MIN_SECRET_LENGTH = 8;

/** Replaces text with another; the identity when nothing is secret. */
export type Redact = (text: string) => string;

/**
 * Replaces every known secret value in text with `[redacted NAME]`, NAME saying where the value
 * came from (a variable or a config header), never part of the value. Each value is also matched
 * in the forms it takes inside JSON strings and URLs, since error bodies and session lines carry
 * it that way. Secrets can be added after construction (config is read after the output streams
 * are wrapped); `redact` always uses the current set.
 */
export class SecretRedactor {
  readonly #labels = new Map<string, string>();
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
    return text.replace(this.#pattern, (match) => `[redacted ${this.#labels.get(match) ?? "secret"}]`);
  };
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
