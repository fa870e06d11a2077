/**
 * The inputs read from stdin and not yet run, in order: `next` waits for one, and gives undefined
 * once the queue is closed and empty (stdin has ended and every input has been taken).
 */
export class InputQueue<T> {
  readonly #items: T[] = [];
  #waiting: ((item: T | undefined) => void) | undefined;
  #closed = false;

  /** How many inputs wait. */
  get length(): number {
    return this.#items.length;
  }

  push(item: T): void {
    if (this.#closed) return;
    const waiting = this.#waiting;
    this.#waiting = undefined;
    if (waiting !== undefined) waiting(item);
    else this.#items.push(item);
  }

  next(): Promise<T | undefined> {
    const item = this.#items.shift();
    if (item !== undefined || this.#closed) return Promise.resolve(item);
    return new Promise((resolve) => {
      this.#waiting = resolve;
    });
  }

  /** No more inputs: what is queued is still given, then undefined. */
  close(): void {
    this.#closed = true;
    const waiting = this.#waiting;
    this.#waiting = undefined;
    waiting?.(undefined);
  }

  /** Takes every queued input out (they will not run), in order. */
  drain(): T[] {
    return this.#items.splice(0);
  }
}
