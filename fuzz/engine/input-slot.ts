/** Bytes before the input in the shared buffer: four Int32 words, then the start time. */
const HEADER_BYTES = 32;
const RUNNING = 0;
const LENGTH = 1;
const STOP = 2;
const SEQUENCE = 3;

/**
 * The input the worker is running, in memory the supervisor shares: a synchronous endless loop or
 * a backtracking regex never yields, so the supervisor reads the input and how long it has run
 * from here, and stops the worker from outside. It also carries the supervisor's request to stop.
 */
export class InputSlot {
  private readonly words: Int32Array;
  private readonly started: Float64Array;
  private readonly bytes: Uint8Array;

  constructor(readonly buffer: SharedArrayBuffer) {
    this.words = new Int32Array(buffer, 0, 4);
    this.started = new Float64Array(buffer, 16, 1);
    this.bytes = new Uint8Array(buffer, HEADER_BYTES);
  }

  static create(capacity: number): InputSlot {
    return new InputSlot(new SharedArrayBuffer(HEADER_BYTES + capacity));
  }

  begin(input: Uint8Array): void {
    const length = Math.min(input.length, this.bytes.length);
    this.bytes.set(input.subarray(0, length));
    Atomics.store(this.words, LENGTH, length);
    this.started[0] = Date.now();
    Atomics.add(this.words, SEQUENCE, 1);
    Atomics.store(this.words, RUNNING, 1);
  }

  end(): void {
    Atomics.store(this.words, RUNNING, 0);
  }

  /** How long the current input has run, or undefined when none is running. */
  runningFor(now: number): number | undefined {
    if (Atomics.load(this.words, RUNNING) === 0) return undefined;
    return now - (this.started[0] as number);
  }

  /** Changes with every input, so a watcher can tell one long input from many short ones. */
  get sequence(): number {
    return Atomics.load(this.words, SEQUENCE);
  }

  /** The latest input (still running, or the last one run). */
  lastInput(): Buffer {
    return Buffer.from(this.bytes.subarray(0, Atomics.load(this.words, LENGTH)));
  }

  requestStop(): void {
    Atomics.store(this.words, STOP, 1);
  }

  get stopRequested(): boolean {
    return Atomics.load(this.words, STOP) === 1;
  }
}
