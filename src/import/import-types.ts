import type { CompactionTrigger, Message } from "../core/index.js";

/** The agents whose session files `panto import` reads, told apart by content. */
export type ImportFormat = "claude-code" | "codex" | "pi";

/** One line of a source file: its JSON value, or the text that would not parse. */
export type SourceLine =
  | { line: number; value: Record<string, unknown> }
  | { line: number; invalid: string; reason: string };

/**
 * What a source parser makes of the file, in order, before the shared builder turns it into panto
 * entries: messages (consecutive ones of a role are merged later), the source's compactions, and
 * notes for everything else.
 */
export type ImportItem =
  | {
      kind: "message";
      message: Message;
      line: number;
      /** The source's id for the entry (pi: where a compaction's kept part starts). */
      sourceId?: string;
    }
  | {
      kind: "compaction";
      summary: string;
      trigger: CompactionTrigger;
      line: number;
      /** pi: the source id of the first message the compaction kept; else the turn in flight only. */
      keepFrom?: string;
    }
  | { kind: "note"; line: number; type: string; text: string; unknown: boolean };

/** A parsed source file. */
export interface ParsedSource {
  format: ImportFormat;
  /** The source's own session id, when it records one. */
  sourceId?: string;
  /** The working directory the source session ran in, when recorded. */
  sourceCwd?: string;
  /** "provider/model" of its latest answer, when known. */
  model?: string;
  items: ImportItem[];
  /** Lines the parser knew and left out on purpose (they repeat what other lines hold), by type. */
  skipped: Record<string, number>;
  warnings: string[];
}
