import { windowSourceText } from "./context-usage.js";
import { formatTokens } from "./format-text.js";
import type { WindowSource } from "./window-source.js";

/** Config `context_warnings` when unset: the shares of a known window at which the context warns. */
export const DEFAULT_CONTEXT_WARNINGS: readonly number[] = [0.7, 0.85, 0.95];

/**
 * Which warning levels (fractions of a known window) have been given: each once, until the context
 * drops below it again (a compaction, an undo, a clearing), when it is armed again. A context that
 * passes several levels at once warns once, at the highest, and the lower ones count as given.
 * Sizes are uncertain (the local estimate errs large): a level is armed again only when even the
 * size as shown is below it, and given only when the part the provider counted is past it, so an
 * estimate that overshoots and is then corrected neither warns early nor twice.
 */
export class ContextWarnings {
  readonly #levels: readonly number[];
  readonly #given = new Set<number>();

  constructor(levels: readonly number[]) {
    this.#levels = [...new Set(levels)].sort((a, b) => a - b);
  }

  /**
   * The level to warn at now that `used` of `size` tokens are taken, of which the provider counted
   * `counted` (by default all), or undefined for none.
   */
  check(used: number, size: number, counted = used): number | undefined {
    let warn: number | undefined;
    for (const level of this.#levels) {
      if (used / size < level) this.#given.delete(level);
      else if (counted / size >= level && !this.#given.has(level)) {
        this.#given.add(level);
        warn = level;
      }
    }
    return warn;
  }
}

/**
 * A context warning in words, for the terminal and print mode: ""context past 85% of the window (170k of 200k
 * tokens, reported by the server); /compact makes room".
 */
export function contextWarningText(warning: {
  level: number;
  used: number;
  size: number;
  sizeFrom: WindowSource;
}): string {
  const share = Math.round(warning.level * 100);
  return `context past ${share}% of the window (${formatTokens(warning.used)} of ${formatTokens(warning.size)} tokens, ${windowSourceText(warning.sizeFrom)}); /compact makes room`;
}

/**
 * A compaction summary prepared ahead, in words: "compaction prepared: 12 turns (~48k tokens) in
 * ~2.1k tokens, for the next overflow (/summary)": short enough for one row. One written because
 * the prompt cache went cold is "..., applied with your next prompt (prompt cache expired; /summary)".
 */
export function preparedCompactionText(event: {
  turnsSummarised: number;
  tokensSummarised: number;
  summaryTokens: number;
  coldCache?: true;
}): string {
  const turns = event.turnsSummarised === 1 ? "1 turn" : `${event.turnsSummarised} turns`;
  const when =
    event.coldCache === true
      ? "applied with your next prompt (prompt cache expired; /summary)"
      : "for the next overflow (/summary)";
  return `compaction prepared: ${turns} (~${formatTokens(event.tokensSummarised)} tokens) in ~${formatTokens(event.summaryTokens)} tokens, ${when}`;
}
