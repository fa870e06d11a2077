import type { SessionEntry, SessionHeader } from "../session/index.js";
import { parseSessionLine, SessionError, validateHeader } from "../session/index.js";
import { readLines } from "./read-lines.js";

/** An entry object as read, before or without typing. */
export type EntryFields = Record<string, unknown> & { type: string };

/** One line after the header: a known entry, an entry of another type, or a line that is no entry. */
export type SessionLine =
  /** The entry types the page draws with their own renderers; the compaction controls' entries come as "other". */
  | { kind: "entry"; line: number; entry: CoreEntry }
  | { kind: "other"; line: number; fields: EntryFields }
  | { kind: "invalid"; line: number; text: string; reason: string };

export type CoreEntry = Extract<SessionEntry, { type: "message" | "compaction" | "turn-failed" }>;

function isCoreEntry(entry: SessionEntry): entry is CoreEntry {
  return entry.type === "message" || entry.type === "compaction" || entry.type === "turn-failed";
}

function classify(line: number, text: string): SessionLine {
  const parsed = parseSessionLine(text);
  if (parsed.kind === "entry" && isCoreEntry(parsed.entry))
    return { kind: "entry", line, entry: parsed.entry };
  if (parsed.kind === "entry") return { kind: "other", line, fields: parsed.entry as unknown as EntryFields };
  if (parsed.kind === "unknown") return { kind: "other", line, fields: JSON.parse(text) as EntryFields };
  return { kind: "invalid", line, text, reason: parsed.reason };
}

/**
 * Streams a session file: first its validated header, then every other line classified. A file
 * whose line 1 is not a panto header is a SessionError naming it (a usage error at the CLI).
 */
export async function* readSessionLines(
  path: string,
): AsyncGenerator<{ header: SessionHeader } | SessionLine> {
  let sawHeader = false;
  for await (const { line, text } of readLines(path)) {
    if (!sawHeader) {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        throw new SessionError(
          path,
          `${path}, line ${line}: the header is not valid JSON; this is not a panto session file`,
          { line },
        );
      }
      yield { header: validateHeader(path, value) };
      sawHeader = true;
    } else {
      yield classify(line, text);
    }
  }
  if (!sawHeader) throw new SessionError(path, `${path} is empty; there is no session to export`);
}
