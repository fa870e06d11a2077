import { looksSecretName } from "./secret-names.js";

/** One secret a URL carries: where in the URL (for the redaction label) and its value. */
export interface UrlSecret {
  /** `password` for the userinfo password, or `query.NAME` for a query parameter. */
  part: string;
  value: string;
}

/**
 * The secrets written into a URL: the password of `https://user:PASSWORD@host`, and every query
 * parameter whose name looks secret (`?token=`, `api_key=`, `access_token=`, `key=`...; see
 * `looksSecretName`), each as it was written and decoded, since a server may echo either. A URL
 * that does not parse carries none that can be told apart.
 */
export function urlSecrets(url: string): UrlSecret[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [];
  }
  const found: UrlSecret[] = [];
  if (parsed.password !== "") found.push(...bothForms("password", parsed.password));
  for (const [name, raw] of rawQueryPairs(parsed.search))
    if (looksSecretName(name)) found.push(...bothForms(`query.${name}`, raw));
  return found;
}

/** The query's name=value pairs with the values as written (URLSearchParams would decode them). */
function rawQueryPairs(search: string): Array<[string, string]> {
  return search
    .replace(/^\?/, "")
    .split("&")
    .filter((pair) => pair.includes("="))
    .map((pair) => {
      const at = pair.indexOf("=");
      return [safeDecode(pair.slice(0, at)), pair.slice(at + 1)];
    });
}

function bothForms(part: string, raw: string): UrlSecret[] {
  const decoded = safeDecode(raw.replace(/\+/g, " "));
  return decoded === raw
    ? [{ part, value: raw }]
    : [
        { part, value: raw },
        { part, value: decoded },
      ];
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
