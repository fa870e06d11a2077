/** A line that may hold a hit: where it is, its turn, and the most its blocks can score. */
export interface Candidate {
  source: number;
  offset: number;
  length: number;
  turn: number;
  /** The most any of its blocks can score, from its raw line. */
  bound: number;
  /** For a tool-result line: the assistant line before it, where its calls are. */
  calls?: { offset: number; length: number };
}

interface Level {
  items: Candidate[];
  /** Items before this index were dropped (the oldest). */
  head: number;
  bytes: number;
}

/**
 * The candidate lines of a search, in the order they are verified: highest bound first, then the
 * current session before its parents, then newest first. Verification stops after `maxBytes` of
 * lines, so of each bound and source only the newest `maxBytes` worth can ever be verified: older
 * ones are dropped as they come, which keeps memory flat however many lines a common word finds.
 * The count of all candidates stays known.
 */
export class CandidatePool {
  readonly #levels = new Map<string, Level>();
  #count = 0;

  constructor(private readonly maxBytes: number) {}

  /** Candidates added so far, dropped ones included. */
  get count(): number {
    return this.#count;
  }

  add(candidate: Candidate): void {
    this.#count++;
    const key = `${candidate.bound}:${candidate.source}`;
    let level = this.#levels.get(key);
    if (level === undefined) {
      level = { items: [], head: 0, bytes: 0 };
      this.#levels.set(key, level);
    }
    level.items.push(candidate);
    level.bytes += candidate.length;
    while (level.bytes - (level.items[level.head] as Candidate).length >= this.maxBytes) {
      level.bytes -= (level.items[level.head] as Candidate).length;
      level.head++;
    }
    // Drop the dropped ones for good now and then, so the array does not keep them alive.
    if (level.head > 4096 && level.head * 2 > level.items.length) {
      level.items = level.items.slice(level.head);
      level.head = 0;
    }
  }

  /** The kept candidates in verification order; `dropped` says whether any were left out. */
  ordered(): { candidates: Candidate[]; dropped: boolean } {
    const keys = [...this.#levels.keys()].sort((a, b) => {
      const [boundA, sourceA] = a.split(":").map(Number) as [number, number];
      const [boundB, sourceB] = b.split(":").map(Number) as [number, number];
      return boundB - boundA || sourceA - sourceB;
    });
    const candidates: Candidate[] = [];
    for (const key of keys) {
      const level = this.#levels.get(key) as Level;
      for (let index = level.items.length - 1; index >= level.head; index--)
        candidates.push(level.items[index] as Candidate);
    }
    return { candidates, dropped: candidates.length < this.#count };
  }
}
