/**
 * An expected tool failure (missing file, no match, ...). Thrown from deep inside a tool and turned
 * into an error output by `defineTool`, so helpers need not thread results back by hand.
 */
export class ToolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ToolError";
  }
}
