import { Session } from "node:inspector";

interface CoverageRange {
  startOffset: number;
  endOffset: number;
  count: number;
}

interface ScriptCoverage {
  url: string;
  functions: Array<{ ranges: CoverageRange[] }>;
}

/** Distinct features remembered; a power of two so a feature hash indexes it directly. */
const FEATURE_SLOTS = 1 << 22;

/**
 * Coverage guidance from V8's precise block coverage, read through the inspector of this thread.
 * After each input, every block range of the code under test (only the scripts `watched` accepts,
 * so the engine itself does not count) becomes a feature: its position and its hit count in
 * AFL-style buckets. A range reported with count 0 inside a function that ran is a feature too: it
 * records a branch not taken, which a different input may take. Taking the coverage resets the
 * counters, so each input is measured alone.
 */
export class CoverageProbe {
  private readonly session = new Session();
  private readonly seen = new Uint8Array(FEATURE_SLOTS);
  private readonly blocks = new Set<string>();
  /** Features seen so far: the engine's coverage figure. */
  features = 0;

  constructor(private readonly watched: (url: string) => boolean) {
    this.session.connect();
    this.post("Profiler.enable");
    this.post("Profiler.startPreciseCoverage", { callCount: true, detailed: true });
  }

  /** Takes (and resets) the coverage of the last input; returns how many features were new. */
  take(): number {
    const { result } = this.post("Profiler.takePreciseCoverage") as { result: ScriptCoverage[] };
    let fresh = 0;
    for (const script of result) {
      if (!this.watched(script.url)) continue;
      for (const fn of script.functions) {
        const [outer] = fn.ranges;
        if (outer === undefined || outer.count === 0) continue;
        for (const range of fn.ranges) fresh += this.note(range);
      }
    }
    return fresh;
  }

  /** Block ranges ever executed (count above zero): the coverage reported in the figures. */
  get blocksCovered(): number {
    return this.blocks.size;
  }

  private note(range: CoverageRange): number {
    const slot = hash(range.startOffset, range.endOffset, bucket(range.count)) & (FEATURE_SLOTS - 1);
    if (range.count > 0) this.blocks.add(`${range.startOffset}:${range.endOffset}`);
    if (this.seen[slot] === 1) return 0;
    this.seen[slot] = 1;
    this.features++;
    return 1;
  }

  private post(method: string, params?: object): unknown {
    let failure: Error | null = null;
    let answer: unknown;
    // The inspector answers an in-thread session synchronously.
    this.session.post(method, params, (error, result) => {
      failure = error;
      answer = result;
    });
    if (failure !== null) throw failure;
    return answer;
  }
}

/** AFL's hit-count classes: 0, 1, 2, 3, 4-7, 8-15, 16-31, 32-127, 128+. */
function bucket(count: number): number {
  if (count < 4) return count;
  if (count < 8) return 4;
  if (count < 16) return 5;
  if (count < 32) return 6;
  if (count < 128) return 7;
  return 8;
}

function hash(a: number, b: number, c: number): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13) ^ b, 0xc2b2ae35);
  h = Math.imul(h ^ (h >>> 16) ^ c, 0x27d4eb2f);
  return (h ^ (h >>> 15)) >>> 0;
}
