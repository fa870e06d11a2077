import type { FileHandle } from "node:fs/promises";
import { KeptCopyCounter } from "./kept-copy-counter.js";
import { parseSessionLine } from "./parse-session-line.js";
import {
  BACKWARD_CHUNK_BYTES,
  type BackwardLine,
  readExactly,
  readLinesBackward,
} from "./read-lines-backward.js";
import { readSessionHeader } from "./read-session-header.js";
import { rewindsConversation } from "./rewound-ranges.js";
import {
  entryHoldsImage,
  type RewindEntry,
  type SessionEntry,
  type SessionHeader,
} from "./session-entries.js";
import { imagesFolder } from "./session-paths.js";
import { isTurnStart } from "./turn-numbers.js";

/** What resuming a session file found: its header and its active suffix. */
export interface ActiveSuffixRead {
  header: SessionHeader;
  /** Entries from the latest compaction entry on (all entries when there is none), in file order. */
  entries: SessionEntry[];
  /** Bad lines met on the way, each naming the file and the line (or byte offset). */
  warnings: string[];
  /** False when the file's last byte is not "\n": the next append must start a new line first. */
  endsWithNewline: boolean;
  /** Lines looked at (blank ones included): a measure of how much of the file was read. */
  linesRead: number;
  /** The turns rewinds took back within the suffix, which turn numbers still count (see {@link RewoundTurns}). */
  rewoundTurns: RewoundTurns;
}

/**
 * How many user turns a rewind took out of the suffix, by where they were: under the id of the
 * entry read just before them, or `""` before the first one. Those entries are not read into
 * memory, but a turn number counts every user message of the file (`turnStarts`), so the numbers
 * of later turns need them.
 */
export type RewoundTurns = ReadonlyMap<string, number>;

/** A warning waiting for its position: line numbers are known only once the scan reaches the header. */
interface PendingNote {
  /** Lines between this one and the end of the file. */
  fromEnd: number;
  offset: number;
  /** What was found, e.g. "unparsable entry"; the position follows it. */
  subject: string;
  /** What it means and what was done, after the position. */
  detail: string;
}

/** One line read backward: the entry it holds, if any, and what to warn about, if anything. */
interface LineVerdict {
  entry?: SessionEntry;
  note?: Pick<PendingNote, "subject" | "detail">;
}

function judgeLine(line: BackwardLine, isLast: boolean): LineVerdict {
  const parsed = parseSessionLine(line.text);
  if (parsed.kind === "entry") {
    if (line.terminated) return { entry: parsed.entry };
    const detail =
      " has no newline after it (the write was cut off just before it); the entry is complete and kept";
    return { entry: parsed.entry, note: { subject: "last entry", detail } };
  }
  if (parsed.kind === "unknown") {
    const detail = ` (written by a newer panto?) is ignored here and left in the file`;
    return { note: { subject: `entry of unknown type "${parsed.type}"`, detail } };
  }
  if (isLast && (!parsed.json || !line.terminated)) {
    const detail = ` (${parsed.reason}; a write was cut off, probably by a crash) is ignored and left in the file`;
    return { note: { subject: "incomplete last line", detail } };
  }
  return {
    note: {
      subject: parsed.json ? "invalid entry" : "unparsable entry",
      detail: ` (${parsed.reason}) is skipped and left in the file`,
    },
  };
}

/** A kept copy met on the way: which compaction it names, and where it is. */
interface KeptCopyAt {
  keptBy: string;
  fromEnd: number;
  offset: number;
}

/**
 * Notes for kept copies naming no compaction entry of the active suffix (a hand-edited or damaged
 * file): replay treats them as ordinary messages, and the user is told where they are.
 */
function orphanCopyNotes(found: readonly SessionEntry[], keptCopies: readonly KeptCopyAt[]): PendingNote[] {
  const compactions = new Set(found.filter((entry) => entry.type === "compaction").map((entry) => entry.id));
  return keptCopies
    .filter((copy) => !compactions.has(copy.keptBy))
    .map((copy) => ({
      fromEnd: copy.fromEnd,
      offset: copy.offset,
      subject: "kept copy",
      detail: ` names compaction ${copy.keptBy}, which is not in the active part of the session (after the latest compaction); it is replayed as an ordinary message`,
    }));
}

async function endsWithNewline(file: FileHandle, size: number): Promise<boolean> {
  if (size === 0) return true;
  const last = Buffer.alloc(1);
  await readExactly(file, last, size - 1);
  return last[0] === 0x0a;
}

function formatNotes(path: string, notes: PendingNote[], totalLines: number | undefined): string[] {
  return notes.reverse().map((note) => {
    // Line 1 is the header, so the first entry line is line 2.
    const where =
      totalLines === undefined ? `byte ${note.offset}` : `line ${2 + totalLines - 1 - note.fromEnd}`;
    return `${path}: ${note.subject} at ${where}${note.detail}`;
  });
}

/** What one backward scan found; `unresolved` names a rewind whose point was never reached, and where its line starts. */
interface BackwardScan {
  found: SessionEntry[];
  notes: PendingNote[];
  linesRead: number;
  reachedHeader: boolean;
  unresolved?: { entry: RewindEntry; offset: number };
  rewoundTurns: Map<string, number>;
}

/**
 * Reads backward to the compaction replay starts at. A rewind in effect is read past together with
 * everything it drops (back to and including its point), as if none of it had been written; window
 * entries in between are kept (a learned window stays true). Rewinds whose lines start at an offset
 * in `ignored` count for nothing (by offset, not id: a damaged file may repeat an id, and only the
 * rewind whose point is missing is to be ignored).
 */
async function scanBackward(
  file: FileHandle,
  end: number,
  size: number,
  chunkBytes: number,
  ignored: ReadonlySet<number>,
): Promise<BackwardScan> {
  const scan: BackwardScan = {
    found: [],
    notes: [],
    linesRead: 0,
    reachedHeader: end === size,
    rewoundTurns: new Map(),
  };
  // Turn starts read past since the latest entry found: they follow the next one found (going back).
  let passed = 0;
  const found = (entry: SessionEntry): void => {
    scan.found.push(entry);
    if (passed === 0) return;
    scan.rewoundTurns.set(entry.id, (scan.rewoundTurns.get(entry.id) ?? 0) + passed);
    passed = 0;
  };
  const copies = new KeptCopyCounter();
  const keptCopies: KeptCopyAt[] = [];
  let skipping: RewindEntry | undefined;
  let skippingAt = 0;
  for await (const line of readLinesBackward(file, end, size, chunkBytes)) {
    const fromEnd = scan.linesRead++;
    scan.reachedHeader = line.offset === end;
    if (line.text === "") continue;
    const { entry, note } = judgeLine(line, fromEnd === 0);
    if (note !== undefined) scan.notes.push({ fromEnd, offset: line.offset, ...note });
    if (entry === undefined) continue;
    if (skipping !== undefined) {
      if (entry.id === skipping.firstEntryId) skipping = undefined;
      if (entry.type === "window") found(entry);
      else if (isTurnStart(entry)) passed += 1;
      continue;
    }
    if (rewindsConversation(entry) && !ignored.has(line.offset)) {
      skipping = entry;
      skippingAt = line.offset;
      continue;
    }
    found(entry);
    if (entry.type === "compaction" && copies.startsReplay(entry)) break;
    if (entry.type === "message" && entry.keptBy !== undefined)
      keptCopies.push({ keptBy: entry.keptBy, fromEnd, offset: line.offset });
    copies.see(entry);
  }
  if (passed > 0) scan.rewoundTurns.set("", passed);
  scan.notes.push(...orphanCopyNotes(scan.found, keptCopies));
  return skipping === undefined ? scan : { ...scan, unresolved: { entry: skipping, offset: skippingAt } };
}

/**
 * Resumes a session file: reads the header, then reads backward from the end to the latest
 * complete compaction entry (or the header), parsing only those lines. A compaction whose kept
 * copies did not all land, or that an `uncompact` entry undid, is read past, so replay can start
 * from the state before it; so is every range a rewind took back. The cost grows with the active
 * suffix, not with the file's whole history (DESIGN "Session file").
 */
export async function readActiveSuffix(
  path: string,
  file: FileHandle,
  size: number,
  chunkBytes: number = BACKWARD_CHUNK_BYTES,
): Promise<ActiveSuffixRead> {
  const { header, end } = await readSessionHeader(path, file, size);
  const ignored = new Set<number>();
  const bogus: string[] = [];
  let scan = await scanBackward(file, end, size, chunkBytes, ignored);
  // A rewind whose point is not before it (a damaged file) would drop everything: read again without it.
  while (scan.unresolved !== undefined) {
    const { entry, offset } = scan.unresolved;
    ignored.add(offset);
    bogus.push(
      `${path}: rewind entry ${entry.id} names entry ${entry.firstEntryId}, which is not before it in the session; ignored`,
    );
    scan = await scanBackward(file, end, size, chunkBytes, ignored);
  }
  scan.notes.sort((a, b) => a.fromEnd - b.fromEnd);
  // The bytes of the suffix's images, from the folder beside the file: resuming re-sends them.
  const found = scan.found.reverse();
  const images = found.some(entryHoldsImage)
    ? await loadImagesOf(found, path)
    : { entries: found, warnings: [] };
  return {
    header,
    entries: images.entries,
    warnings: [
      ...bogus,
      ...formatNotes(path, scan.notes, scan.reachedHeader ? scan.linesRead : undefined),
      ...images.warnings.map((warning) => `${path}: ${warning}`),
    ],
    endsWithNewline: await endsWithNewline(file, size),
    linesRead: scan.linesRead,
    rewoundTurns: scan.rewoundTurns,
  };
}

/** The images' bytes, read back: loaded with the first session that holds an image, not with every run. */
async function loadImagesOf(
  entries: SessionEntry[],
  path: string,
): Promise<{ entries: SessionEntry[]; warnings: string[] }> {
  const { loadImages } = await import("./session-images.js");
  return await loadImages(entries, imagesFolder(path));
}
