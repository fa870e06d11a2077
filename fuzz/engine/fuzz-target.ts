/**
 * What one fuzz target is: a file in `fuzz/targets/` named after what it fuzzes, exporting `target`.
 * The engine finds targets by listing that folder, so a new reader gets fuzzed by adding one file
 * (and a few seed inputs under `fuzz/corpus/<file name>/`).
 */
export interface FuzzTarget {
  /** One line: what is read or rendered, and which invariants are checked. */
  description: string;
  /**
   * Runs one input. Anything it throws is a find: a broken invariant (`InvariantBroken`, thrown by
   * `invariant`) or an error that escaped the code under test. Targets catch the errors panto is
   * allowed to raise (its own, with a code) and check them with `expectOwnError`.
   */
  run(input: Buffer): void | Promise<void>;
  /** Tokens of the input's grammar, spliced in by the mutator (field names, delimiters, escapes). */
  dictionary?: readonly string[];
  /** Longest input the mutator makes, in bytes (seeds may be longer). Default 8192. */
  maxLength?: number;
  /** Wall-clock limit per input before it counts as a hang. Default 2000 ms. */
  timeoutMs?: number;
}

/** A property of the output that must hold for every input, found broken. */
export class InvariantBroken extends Error {
  constructor(message: string) {
    super(message);
    this.name = "InvariantBroken";
  }
}

/** Throws `InvariantBroken` with `message` unless `condition` holds. */
export function invariant(condition: unknown, message: string): asserts condition {
  if (!condition) throw new InvariantBroken(message);
}
