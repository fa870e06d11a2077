import { clearingsInForce, type SessionEntry } from "../session/index.js";

/**
 * The tokens the clearings in force among `entries` keep out of the context: each clearing's
 * recorded before-and-after difference (a carried one, its results' sizes less nothing known of
 * their stubs, so its results' sizes).
 */
export function clearedTokens(entries: readonly SessionEntry[]): number {
  return clearingsInForce(entries).clearings.reduce(
    (total, clearing) =>
      total +
      (clearing.entry === undefined
        ? clearing.results.reduce((sum, result) => sum + result.tokens, 0)
        : Math.max(0, clearing.entry.tokensBefore - clearing.entry.tokensAfter)),
    0,
  );
}
