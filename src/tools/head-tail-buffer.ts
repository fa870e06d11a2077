/**
 * Collects streamed text in bounded memory, keeping its beginning and its end: the start shows
 * what a command did, the end shows how it finished (errors, summaries).
 */
export class HeadTailBuffer {
  private head = "";
  private tail = "";
  private total = 0;
  private readonly headLimit: number;
  private readonly tailLimit: number;

  constructor(maxChars: number) {
    this.headLimit = Math.ceil(maxChars / 2);
    this.tailLimit = maxChars - this.headLimit;
  }

  append(text: string): void {
    this.total += text.length;
    const room = this.headLimit - this.head.length;
    if (room > 0) {
      this.head += text.slice(0, room);
      text = text.slice(room);
    }
    if (text === "") return;
    this.tail += text;
    // Trim only when well over the limit so appends stay amortised O(length).
    if (this.tail.length > this.tailLimit * 2) this.tail = this.tail.slice(-this.tailLimit);
  }

  /** Characters received so far. */
  get length(): number {
    return this.total;
  }

  /** The text, or its head and tail around a marker saying how much was cut. */
  toString(): string {
    const tail = this.tail.length > this.tailLimit ? this.tail.slice(-this.tailLimit) : this.tail;
    const cut = this.total - this.head.length - tail.length;
    if (cut <= 0) return this.head + tail;
    return `${this.head}\n\n... [${cut} characters cut from the middle of the output] ...\n\n${tail}`;
  }
}
