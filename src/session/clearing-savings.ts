import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import { parseSessionLine } from "./parse-session-line.js";
import type { SessionEntry } from "./session-entries.js";

/** What clearing did over a whole session file: for `/cost`. */
export interface ClearingSavings {
  /** Clearing entries written (undone ones included). */
  clearings: number;
  /** Tool outputs they took out of the context. */
  results: number;
  /**
   * Input tokens the requests after each clearing did not carry: its recorded size difference
   * (before less after) for every request while it stood, until taken back or the next compaction
   * (which stops the count: a summarised output would not have been sent either). An estimate from
   * the sizes recorded, not a provider's count.
   */
  tokensSaved: number;
}

/** The lines that matter, found before any JSON is parsed. */
const KINDS = ['"type":"clearing"', '"type":"unclear"', '"type":"compaction"', '"role":"assistant"'];

/** Folds the entries of a session file, in order, into its clearing savings. */
export class ClearingSavingsCounter {
  readonly #standing = new Map<string, number>();
  readonly savings: ClearingSavings = { clearings: 0, results: 0, tokensSaved: 0 };

  line(text: string): void {
    if (!KINDS.some((kind) => text.includes(kind))) return;
    const parsed = parseSessionLine(text);
    if (parsed.kind === "entry") this.entry(parsed.entry);
  }

  entry(entry: SessionEntry): void {
    switch (entry.type) {
      case "clearing":
        this.savings.clearings++;
        this.savings.results += entry.results.length;
        this.#standing.set(entry.id, Math.max(0, entry.tokensBefore - entry.tokensAfter));
        return;
      case "unclear":
        this.#standing.delete(entry.clearingId);
        return;
      case "compaction":
        this.#standing.clear();
        return;
      case "message":
        if (entry.message.role !== "assistant" || entry.keptBy !== undefined) return;
        for (const saved of this.#standing.values()) this.savings.tokensSaved += saved;
        return;
    }
  }
}

/** The clearing savings of the session file at `path`, read line by line; a missing file has none. */
export async function readClearingSavings(path: string): Promise<ClearingSavings> {
  const counter = new ClearingSavingsCounter();
  try {
    const lines = createInterface({ input: createReadStream(path), crlfDelay: Number.POSITIVE_INFINITY });
    for await (const line of lines) counter.line(line);
  } catch {
    // What was read so far counts.
  }
  return counter.savings;
}
