import { chmod, readFile, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { makeFolder } from "../../../core/index.js";

/** Lines of input history kept across runs. */
export const HISTORY_SIZE = 1000;

/**
 * Reads `$PANTO_HOME/history` (oldest line first, one entry per line) and returns it newest first,
 * as node:readline wants it. A missing or unreadable file is an empty history.
 */
export async function loadHistory(path: string): Promise<string[]> {
  try {
    const text = await readFile(path, "utf8");
    return text
      .split("\n")
      .filter((line) => line.trim() !== "")
      .slice(-HISTORY_SIZE)
      .reverse();
  } catch {
    return [];
  }
}

/**
 * Returns a function that persists readline's history (newest first) to `path`, mode 0600 because
 * prompts can hold private text, and each line passed through `redact` (known secrets). Writes are
 * serialised; a failed write is reported once and history simply stops being saved.
 */
export function createHistoryWriter(
  path: string,
  onError: (message: string) => void,
  redact: (text: string) => string = (text) => text,
): { save(history: readonly string[]): void; flush(): Promise<void> } {
  let chain: Promise<void> = Promise.resolve();
  let failed = false;
  const write = async (lines: string[]): Promise<void> => {
    await makeFolder(dirname(path), 0o700);
    await writeFile(path, lines.length === 0 ? "" : `${lines.join("\n")}\n`, { mode: 0o600 });
    await chmod(path, 0o600);
  };
  return {
    save(history) {
      if (failed) return;
      const lines = history.slice(0, HISTORY_SIZE).reverse().map(redact);
      chain = chain
        .then(() => write(lines))
        .catch((error: unknown) => {
          failed = true;
          onError(
            `input history not saved to ${path}: ${error instanceof Error ? error.message : String(error)}`,
          );
        });
    },
    flush: () => chain,
  };
}
