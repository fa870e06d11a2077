import type { PantoConfig } from "./panto-config.js";

/**
 * What a config file's text holds, read the way the schema reads it, without the schema: a leading
 * byte-order mark dropped, shorthands expanded, `$schema` left out. Only for text already found
 * valid (see config-verdicts.ts): the schema adds nothing to a valid file (no defaults, no
 * transforms), so this is exactly what `parseConfigText` returns for it.
 */
export function readValidConfigText(text: string): PantoConfig {
  return withoutSchemaKey(expandShorthands(JSON.parse(withoutByteOrderMark(text))) as object) as PantoConfig;
}

export function withoutByteOrderMark(text: string): string {
  return text.replace(/^\uFEFF/, "");
}

/** `"sandbox": "MODE"` is `"sandbox": {"mode": "MODE"}`, so a bad mode is named as "sandbox.mode". */
export function expandShorthands(json: unknown): unknown {
  if (json === null || typeof json !== "object" || Array.isArray(json)) return json;
  const sandbox = (json as Record<string, unknown>).sandbox;
  return typeof sandbox === "string" ? { ...json, sandbox: { mode: sandbox } } : json;
}

/** The settings without the `$schema` key an editor uses to find the file's schema. */
export function withoutSchemaKey<T extends object>(config: T): Omit<T, "$schema"> {
  const { $schema: _ignored, ...rest } = config as T & { $schema?: unknown };
  return rest;
}
