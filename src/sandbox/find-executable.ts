import { accessSync, constants } from "node:fs";
import path from "node:path";

/** The first executable `name` on `searchPath` (a PATH value), or undefined. */
export function findExecutable(name: string, searchPath: string | undefined): string | undefined {
  for (const directory of (searchPath ?? "").split(path.delimiter)) {
    if (directory === "") continue;
    const candidate = path.join(directory, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not here; keep looking.
    }
  }
  return undefined;
}
