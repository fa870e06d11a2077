import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import { parseSessionLine } from "./parse-session-line.js";
import { validateHeader } from "./read-session-header.js";
import { entryHoldsImage, type SessionEntry, type SessionHeader } from "./session-entries.js";
import { SessionError } from "./session-error.js";
import { imagesFolder } from "./session-paths.js";

/** A session file read whole, for a check that never writes to it (fidelity, rewind plans, forks). */
export interface SessionSnapshot {
  path: string;
  header: SessionHeader;
  /** Every entry, in file order. */
  entries: SessionEntry[];
  /** Lines that were skipped, each naming the file and line. */
  warnings: string[];
}

/**
 * Reads every line of a session file, streamed and read-only: no lock is taken and nothing is
 * written, so a session another panto has open can be checked too. A header that is not a session
 * header is a SessionError; any later line that does not parse is skipped with a warning.
 */
export async function readSessionSnapshot(path: string): Promise<SessionSnapshot> {
  const lines = createInterface({
    input: createReadStream(path, { encoding: "utf8", flags: "r" }),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  let header: SessionHeader | undefined;
  const entries: SessionEntry[] = [];
  const warnings: string[] = [];
  let number = 0;
  for await (const line of lines) {
    number++;
    if (number === 1) {
      header = validateHeader(path, parseHeader(path, line.replace(/^\uFEFF/, "")));
      continue;
    }
    if (line.trim() === "") continue;
    const parsed = parseSessionLine(line);
    if (parsed.kind === "entry") entries.push(parsed.entry);
    else
      warnings.push(
        `${path}: line ${number}: ${parsed.kind === "unknown" ? `entry of unknown type "${parsed.type}"` : parsed.reason}; skipped`,
      );
  }
  if (header === undefined) throw new SessionError(path, `${path} is empty: not a session file`);
  if (!entries.some(entryHoldsImage)) return { path, header, entries, warnings };
  // The images' bytes from the folder beside the file, as resuming reads them (fidelity sends them).
  const { loadImages } = await import("./session-images.js");
  const images = await loadImages(entries, imagesFolder(path));
  return {
    path,
    header,
    entries: images.entries,
    warnings: [...warnings, ...images.warnings.map((warning) => `${path}: ${warning}`)],
  };
}

function parseHeader(path: string, line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    throw new SessionError(path, `${path}: line 1 is not a session header (not JSON)`, { line: 1 });
  }
}
