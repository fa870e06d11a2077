import { mutateJsonText } from "./mutate-json.js";
import type { Random } from "./random.js";

/** Bytes that separate or escape things in the formats panto reads and writes. */
const INTERESTING_BYTES = [
  0x00, 0x07, 0x08, 0x09, 0x0a, 0x0d, 0x1b, 0x20, 0x22, 0x26, 0x27, 0x2c, 0x3a, 0x3c, 0x3e, 0x5b, 0x5c, 0x5d,
  0x60, 0x7b, 0x7d, 0x7f, 0x80, 0x9b, 0xc0, 0xff,
];

/** Characters that trip up text handling: controls, separators, surrogates, wide and combining ones. */
const ODD_TEXT = [
  "\u001b[",
  "\u001b]8;;",
  "\u001b\\",
  "\u009b",
  "\r\n",
  "\r",
  "\u2028",
  "\u2029",
  "\ufeff",
  "\u200b",
  "\u0301",
  "\u202e",
  "\u4e2d\u6587",
  "\ud83d\udc68\u200d\ud83d\udcbb",
  "\\u0000",
  "\\ud800",
  '\\"',
  "&lt;",
  "&#x3c;",
  "<!--",
  "]]>",
  "\t",
];

const NUMBERS = [
  "0",
  "-1",
  "1",
  "255",
  "65536",
  "2147483648",
  "9007199254740993",
  "1e308",
  "1e-7",
  "-0",
  "NaN",
];

/**
 * Byte- and structure-level mutations (AFL's havoc, plus JSON-aware and line-aware changes, since
 * most of what panto reads is JSON lines or events). Each call applies one to four of them.
 */
export class Mutator {
  constructor(
    private readonly random: Random,
    private readonly dictionary: readonly string[],
    private readonly maxLength: number,
  ) {}

  mutate(input: Buffer, other: () => Buffer): Buffer {
    let data = input;
    const rounds = 1 + this.random.below(4);
    for (let round = 0; round < rounds; round++) data = this.once(data, other);
    return data.length > this.maxLength ? data.subarray(0, this.maxLength) : data;
  }

  private once(data: Buffer, other: () => Buffer): Buffer {
    const random = this.random;
    switch (random.below(14)) {
      case 0:
        return this.flipBit(data);
      case 1:
        return this.setByte(data);
      case 2:
        return this.insert(data, this.randomBytes(1 + random.below(8)));
      case 3:
        return this.deleteRange(data);
      case 4:
        return this.duplicateRange(data);
      case 5:
        return this.insert(data, Buffer.from(this.word()));
      case 6:
        return this.splice(data, other());
      case 7:
        return this.repeatRange(data);
      case 8:
        return this.replaceNumber(data);
      case 9:
      case 10:
        return this.mutateJsonLine(data);
      case 11:
        return this.mutateLines(data);
      case 12:
        return this.insert(data, Buffer.from(random.pick(ODD_TEXT)));
      default:
        return this.overwriteWithWord(data);
    }
  }

  private word(): string {
    if (this.dictionary.length > 0 && !this.random.oneIn(4)) return this.random.pick(this.dictionary);
    return this.random.pick(ODD_TEXT);
  }

  private position(data: Buffer): number {
    return this.random.below(data.length + 1);
  }

  private randomBytes(length: number): Buffer {
    const bytes = Buffer.alloc(length);
    for (let index = 0; index < length; index++)
      bytes[index] = this.random.oneIn(2) ? this.random.pick(INTERESTING_BYTES) : this.random.below(256);
    return bytes;
  }

  private flipBit(data: Buffer): Buffer {
    if (data.length === 0) return this.randomBytes(1);
    const copy = Buffer.from(data);
    const index = this.random.below(copy.length);
    copy[index] = (copy[index] as number) ^ (1 << this.random.below(8));
    return copy;
  }

  private setByte(data: Buffer): Buffer {
    if (data.length === 0) return this.randomBytes(1);
    const copy = Buffer.from(data);
    copy[this.random.below(copy.length)] = this.random.pick(INTERESTING_BYTES);
    return copy;
  }

  private insert(data: Buffer, bytes: Buffer): Buffer {
    const at = this.position(data);
    return Buffer.concat([data.subarray(0, at), bytes, data.subarray(at)]);
  }

  private range(data: Buffer): [number, number] {
    const start = this.random.below(data.length + 1);
    const longest = Math.min(data.length - start, this.random.oneIn(4) ? data.length : 32);
    return [start, start + this.random.below(longest + 1)];
  }

  private deleteRange(data: Buffer): Buffer {
    const [start, end] = this.range(data);
    return Buffer.concat([data.subarray(0, start), data.subarray(end)]);
  }

  private duplicateRange(data: Buffer): Buffer {
    const [start, end] = this.range(data);
    return this.insert(data, Buffer.from(data.subarray(start, end)));
  }

  /** Many copies of a piece: what makes a backtracking regex or a quadratic loop show itself. */
  private repeatRange(data: Buffer): Buffer {
    const [start, end] = this.range(data);
    const piece = end > start ? data.subarray(start, Math.min(end, start + 8)) : Buffer.from(this.word());
    const times =
      2 + this.random.below(Math.max(2, Math.floor(this.maxLength / 4 / Math.max(1, piece.length))));
    const repeated = Buffer.alloc(piece.length * times);
    for (let index = 0; index < times; index++) piece.copy(repeated, index * piece.length);
    return Buffer.concat([data.subarray(0, start), repeated, data.subarray(start)]);
  }

  private splice(data: Buffer, other: Buffer): Buffer {
    if (this.random.oneIn(2)) {
      const cut = this.position(data);
      const from = this.random.below(other.length + 1);
      return Buffer.concat([data.subarray(0, cut), other.subarray(from)]);
    }
    const [start, end] = this.range(other);
    return this.insert(data, Buffer.from(other.subarray(start, end)));
  }

  private replaceNumber(data: Buffer): Buffer {
    const text = data.toString("latin1");
    const numbers = [...text.matchAll(/-?\d+(\.\d+)?/g)];
    if (numbers.length === 0) return this.insert(data, Buffer.from(this.random.pick(NUMBERS)));
    const match = this.random.pick(numbers);
    const at = match.index ?? 0;
    const replacement = Buffer.from(this.random.pick(NUMBERS));
    return Buffer.concat([data.subarray(0, at), replacement, data.subarray(at + match[0].length)]);
  }

  private overwriteWithWord(data: Buffer): Buffer {
    const word = Buffer.from(this.word());
    const at = this.position(data);
    return Buffer.concat([
      data.subarray(0, at),
      word,
      data.subarray(Math.min(data.length, at + word.length)),
    ]);
  }

  /** One line parsed as JSON and changed structurally; when no line is JSON, the whole input. */
  private mutateJsonLine(data: Buffer): Buffer {
    const lines = data.toString("utf8").split("\n");
    const start = this.random.below(lines.length);
    for (let step = 0; step < lines.length; step++) {
      const index = (start + step) % lines.length;
      const line = lines[index] as string;
      const prefix = /^(data: ?)/.exec(line)?.[1] ?? "";
      const changed = mutateJsonText(line.slice(prefix.length), this.random, this.dictionary);
      if (changed === undefined) continue;
      lines[index] = prefix + changed;
      return Buffer.from(lines.join("\n"));
    }
    return this.overwriteWithWord(data);
  }

  /** Lines repeated, dropped, swapped or cut short: what hand edits and crashed writers leave. */
  private mutateLines(data: Buffer): Buffer {
    const lines = data.toString("utf8").split("\n");
    const index = this.random.below(lines.length);
    const other = this.random.below(lines.length);
    const line = lines[index] as string;
    switch (this.random.below(4)) {
      case 0:
        lines.splice(other, 0, line);
        break;
      case 1:
        lines.splice(index, 1);
        break;
      case 2:
        lines[index] = lines[other] as string;
        lines[other] = line;
        break;
      default:
        lines[index] = line.slice(0, this.random.below(line.length + 1));
    }
    return Buffer.from(lines.join("\n"));
  }
}
