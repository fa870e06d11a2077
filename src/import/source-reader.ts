import type { ImportFormat, ImportItem, ParsedSource } from "./import-types.js";

/**
 * What every source reader collects alike: the items in order, the lines left out on purpose, the
 * source's session id and working directory, and how it tells a note and its result.
 */
export abstract class SourceReader {
  readonly items: ImportItem[] = [];
  readonly skipped: Record<string, number> = {};
  sourceId: string | undefined;
  sourceCwd: string | undefined;

  constructor(private readonly format: ImportFormat) {}

  result(): ParsedSource {
    const model = this.foundModel();
    return {
      format: this.format,
      items: this.items,
      skipped: this.skipped,
      warnings: [],
      ...(this.sourceId === undefined ? {} : { sourceId: this.sourceId }),
      ...(this.sourceCwd === undefined ? {} : { sourceCwd: this.sourceCwd }),
      ...(model === undefined ? {} : { model }),
    };
  }

  /** "provider/model" of the latest answer, when the source named one. */
  protected abstract foundModel(): string | undefined;

  protected note(line: number, type: string, text: string, unknown: boolean): void {
    this.items.push({ kind: "note", line, type: `${this.format} ${type}`, text, unknown });
  }

  protected skip(type: string): void {
    this.skipped[type] = (this.skipped[type] ?? 0) + 1;
  }
}
