/** At most `limit` operations at once; the rest wait in order. */
export class ParallelLimit {
  readonly #limit: number;
  #running = 0;
  readonly #waiting: Array<() => void> = [];

  constructor(limit: number) {
    this.#limit = Math.max(1, limit);
  }

  async run<T>(operation: () => Promise<T>): Promise<T> {
    if (this.#running >= this.#limit) await new Promise<void>((resolve) => this.#waiting.push(resolve));
    this.#running++;
    try {
      return await operation();
    } finally {
      this.#running--;
      this.#waiting.shift()?.();
    }
  }
}
