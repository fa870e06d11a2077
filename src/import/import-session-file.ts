import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { newSessionHeader, newSessionPath, sessionDirectory } from "../session/index.js";
// Not in the session index: only the import writes whole sessions, and a plain run must not load it.
import { writeNewSession } from "../session/write-new-session.js";
import { buildImportEntries, type ImportCounts } from "./build-import-entries.js";
import { detectFormat } from "./detect-format.js";
import { findImportedSession } from "./find-imported-session.js";
import { ImportError } from "./import-error.js";
import type { ImportFormat, ParsedSource, SourceLine } from "./import-types.js";
import { parseClaudeCode } from "./parse-claude-code.js";
import { parseCodex } from "./parse-codex.js";
import { parsePi } from "./parse-pi.js";
import { readSourceLines } from "./read-source-lines.js";

/** Where imported sessions go and who imports: this project's session folder. */
export interface ImportPlace {
  pantoHome: string;
  projectRoot: string;
  /** Working directory written in the new session's header. */
  cwd: string;
}

/** What importing one source file did (or, with dry run, would do). */
export interface ImportReport {
  source: string;
  format: ImportFormat;
  /** "imported": written now; "would_import": dry run; "exists": imported before from these very bytes. */
  status: "imported" | "would_import" | "exists";
  sessionId: string;
  sessionPath: string;
  sourceSessionId?: string;
  sourceCwd?: string;
  /** "provider/model" of the source's latest answer, when known. */
  model?: string;
  counts?: ImportCounts;
  /** Lines the source holds that repeat others (Codex's interface events), by type: not imported. */
  skipped?: Record<string, number>;
  /** Problems with the source, each naming the file and line; none is fatal. */
  warnings: string[];
}

const PARSERS: Readonly<Record<ImportFormat, (lines: readonly SourceLine[]) => ParsedSource>> = {
  "claude-code": parseClaudeCode,
  codex: parseCodex,
  pi: parsePi,
};

/** Reads the source and tells its format, or throws an ImportError naming the file. */
async function readSource(
  path: string,
): Promise<{ text: ReturnType<typeof readSourceLines>; format: ImportFormat }> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (cause) {
    throw new ImportError(path, `${path}: cannot read it: ${(cause as Error).message}`);
  }
  const text = readSourceLines(bytes);
  const format = detectFormat(text.lines);
  if (format === undefined) {
    const first = text.lines[0];
    const what =
      first === undefined
        ? "it holds no JSON lines"
        : `line ${first.line} is no Claude Code, Codex or pi entry`;
    throw new ImportError(path, `${path}: not a Claude Code, Codex or pi session (${what})`, "unrecognised");
  }
  return { text, format };
}

/**
 * Imports one source file into a new session of this project: read, told apart by content, turned
 * into panto entries and written whole. A file imported before with the same bytes is not imported
 * again: the report names the session made then.
 */
export async function importSessionFile(
  source: string,
  place: ImportPlace,
  dryRun: boolean,
): Promise<ImportReport> {
  const path = resolve(source);
  const { text, format } = await readSource(path);
  const directory = sessionDirectory(place.pantoHome, place.projectRoot);
  const existing = await findImportedSession(directory, path, text.sha256);
  if (existing !== undefined)
    return {
      source: path,
      format,
      status: "exists",
      sessionId: existing.id,
      sessionPath: existing.path,
      warnings: [],
    };
  const parsed = PARSERS[format](text.lines);
  const { entries, counts } = buildImportEntries(parsed);
  if (counts.messages.user + counts.messages.assistant === 0)
    throw new ImportError(
      path,
      `${path}: a ${format} session with no conversation in it; nothing to import`,
      "empty",
    );
  const warnings = [...parsed.warnings, ...lineWarnings(path, text.lines, text.truncatedLast)];
  const header = newSessionHeader(place.cwd, {
    id: parsed.sourceId ?? text.sha256.slice(0, 32),
    path,
    relation: "import",
    format,
    sha256: text.sha256,
  });
  const target = newSessionPath(place.pantoHome, place.projectRoot);
  if (!dryRun) await writeNewSession(target, header, entries);
  return {
    source: path,
    format,
    status: dryRun ? "would_import" : "imported",
    sessionId: header.id,
    sessionPath: target,
    counts,
    warnings,
    ...(parsed.sourceId === undefined ? {} : { sourceSessionId: parsed.sourceId }),
    ...(parsed.sourceCwd === undefined ? {} : { sourceCwd: parsed.sourceCwd }),
    ...(parsed.model === undefined ? {} : { model: parsed.model }),
    ...(Object.keys(parsed.skipped).length === 0 ? {} : { skipped: parsed.skipped }),
  };
}

function lineWarnings(
  path: string,
  lines: readonly SourceLine[],
  truncatedLast: number | undefined,
): string[] {
  const warnings = lines.flatMap((line) =>
    "invalid" in line ? [`${path}, line ${line.line}: ${line.reason}; kept as a note`] : [],
  );
  if (truncatedLast !== undefined)
    warnings.push(
      `${path}, line ${truncatedLast}: incomplete last line (the agent was cut off mid-write); left out`,
    );
  return warnings;
}
