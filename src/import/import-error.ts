/** Why a source cannot be imported. */
export type ImportProblem = "unreadable" | "unrecognised" | "empty";

/** A source that cannot be imported: not readable, not a known format, or empty. Names the file. */
export class ImportError extends Error {
  readonly code = "import_failed";

  constructor(
    readonly path: string,
    message: string,
    readonly problem: ImportProblem = "unreadable",
  ) {
    super(message);
    this.name = "ImportError";
  }
}
