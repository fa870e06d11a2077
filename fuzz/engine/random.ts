/** A small seeded generator (xorshift128+ folded to 32 bits): runs repeat for a given seed. */
export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    this.a = seed | 0 || 1;
    this.b = 0x9e3779b9;
    this.c = 0x243f6a88;
    this.d = 0xb7e15162;
    for (let index = 0; index < 16; index++) this.next();
  }

  /** A uniform 32-bit unsigned integer (xoshiro128**). */
  next(): number {
    const result = Math.imul(rotate(Math.imul(this.b, 5), 7), 9) >>> 0;
    const t = this.b << 9;
    this.c ^= this.a;
    this.d ^= this.b;
    this.b ^= this.c;
    this.a ^= this.d;
    this.c ^= t;
    this.d = rotate(this.d, 11);
    return result;
  }

  /** An integer in [0, bound). */
  below(bound: number): number {
    return bound <= 1 ? 0 : this.next() % bound;
  }

  /** True with probability 1/n. */
  oneIn(n: number): boolean {
    return this.below(n) === 0;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.below(items.length)] as T;
  }
}

function rotate(value: number, bits: number): number {
  return (value << bits) | (value >>> (32 - bits));
}
