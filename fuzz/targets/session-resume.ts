import { mkdtempSync, writeFileSync } from "node:fs";
import { type FileHandle, open } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { parseSessionLine, replayEntries, type SessionEntry } from "../../src/session/index.js";
import { readActiveSuffix } from "../../src/session/read-active-suffix.js";
import { type FuzzTarget, invariant } from "../engine/fuzz-target.js";
import { expectOwnError } from "../support/expect-own-error.js";
import { SESSION_WORDS } from "../support/session-words.js";

const path = join(mkdtempSync(join(tmpdir(), "panto-fuzz-resume-")), "session.jsonl");

/**
 * Resuming a session file: reading backwards from the end to the compaction in effect, in reads
 * of a few bytes and of 64 KB. Invariants: it fails only with a SessionError naming the file (a
 * bad header); both read sizes give the same result; replaying what it read gives the same context
 * as replaying the whole file read forwards (spec rule 3: nothing before the compaction in effect
 * counts); and every line it looked at that is not an entry is named in a warning by its line
 * number (or byte offset), so no line is dropped silently.
 */
export const target: FuzzTarget = {
  description:
    "session file -> readActiveSuffix (backwards, small and large reads) vs a forward read and replay",
  dictionary: SESSION_WORDS,
  maxLength: 16_384,
  async run(input) {
    writeFileSync(path, input);
    const small = 1 + ((input.at(-1) ?? 0) % 61);
    const [tiny, large] = [await resume(small, memoryFile(input)), await resume(64 * 1024)];
    if (tiny === undefined || large === undefined) {
      invariant(tiny === large, "one read size failed and the other did not");
      return;
    }
    invariant(isDeepStrictEqual(tiny, large), `reads of ${small} bytes and of 64 KB disagree`);
    const forward = forwardEntries(input);
    invariant(
      isDeepStrictEqual(replayEntries(large.entries).context, replayEntries(forward.entries).context),
      "the context from reading backwards differs from replaying the whole file",
    );
    checkWarnings(forward.lines, large.linesRead, large.warnings);
  },
};

type Resumed = Awaited<ReturnType<typeof readActiveSuffix>>;

/**
 * The file's bytes as a file handle that answers reads from memory, some of them short (as a real
 * read may be). The small reads go through it: one file-system read per few bytes cost about
 * 100 microseconds each, so an 8 KB input read 4 bytes at a time outran the time limit on a busy
 * machine (a campaign find of the harness, not of panto, whose reads are 64 KB).
 */
function memoryFile(bytes: Buffer): FileHandle {
  const read = async (buffer: Buffer, offset: number, length: number, position: number) => {
    const wanted = length > 1 && position % 5 === 0 ? Math.ceil(length / 2) : length;
    const bytesRead = bytes.copy(buffer, offset, position, Math.min(bytes.length, position + wanted));
    return { bytesRead, buffer };
  };
  return {
    read,
    stat: async () => ({ size: bytes.length }),
    close: async () => {},
  } as unknown as FileHandle;
}

async function resume(chunkBytes: number, memory?: FileHandle): Promise<Resumed | undefined> {
  const file = memory ?? (await open(path, "r"));
  try {
    const { size } = await file.stat();
    if (size === 0) return undefined;
    return await readActiveSuffix(path, file, size, chunkBytes);
  } catch (error) {
    expectOwnError(error, ["session"]);
    return undefined;
  } finally {
    await file.close();
  }
}

interface ForwardLine {
  number: number;
  offset: number;
  text: string;
}

/** The entry lines after the header, read forwards; a last line without "\n" included. */
function forwardEntries(input: Buffer): { entries: SessionEntry[]; lines: ForwardLine[] } {
  const lines: ForwardLine[] = [];
  let offset = input.indexOf(0x0a) + 1;
  for (let number = 2; offset > 0 && offset < input.length; number++) {
    const end = input.indexOf(0x0a, offset);
    const stop = end === -1 ? input.length : end;
    lines.push({ number, offset, text: input.subarray(offset, stop).toString("utf8") });
    offset = end === -1 ? input.length : end + 1;
  }
  const entries: SessionEntry[] = [];
  for (const line of lines) {
    if (line.text === "") continue;
    const parsed = parseSessionLine(line.text);
    if (parsed.kind === "entry") entries.push(parsed.entry);
  }
  return { entries, lines };
}

/** Each non-blank line among the last `linesRead` that is not an entry has a warning naming it. */
function checkWarnings(lines: readonly ForwardLine[], linesRead: number, warnings: readonly string[]): void {
  for (const line of lines.slice(lines.length - linesRead)) {
    if (line.text === "" || parseSessionLine(line.text).kind === "entry") continue;
    const named = warnings.some(
      (warning) =>
        warning.includes(` at line ${line.number} `) || warning.includes(` at byte ${line.offset} `),
    );
    invariant(named, `line ${line.number} (byte ${line.offset}) is neither an entry nor in a warning`);
  }
}
