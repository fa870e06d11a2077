/**
 * Words that mark a variable or header name as holding a secret, matched anywhere in the name,
 * case-insensitively: OPENAI_API_KEY, GITHUB_TOKEN, AWS_SECRET_ACCESS_KEY, PGPASSWORD,
 * Authorization, x-api-key, Cookie. SESSION alone is not one: DBUS_SESSION_BUS_ADDRESS and
 * XDG_SESSION_ID are ordinary (a session token still says TOKEN).
 */
export const SECRET_NAME_WORDS = [
  "KEY",
  "TOKEN",
  "SECRET",
  "PASSWORD",
  "PASSWD",
  "CREDENTIAL",
  "AUTH",
  "PRIVATE",
  "COOKIE",
] as const;

const SECRET_NAME = new RegExp(SECRET_NAME_WORDS.join("|"), "i");

/** Whether a variable or header name looks like it holds a secret (see SECRET_NAME_WORDS). */
export function looksSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}
