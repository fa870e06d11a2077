import { readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { ContextWindowStore } from "../../providers/create-model-client.js";

/** The file in panto's home holding the windows servers reported, by base URL then model. */
export const CONTEXT_WINDOWS_FILE = "context-windows.json";

type Windows = Record<string, Record<string, { context_window: number; reported: string }>>;

/**
 * The context windows OpenAI-compatible servers reported, kept in `$PANTO_HOME/context-windows.json`.
 * `probe`: whether this run asks servers (the interactive terminal and ACP, where the window is
 * shown) or only reads what an earlier run stored (print and JSON modes). A file panto cannot read
 * or parse counts as empty: a window is a display hint, never worth failing a run.
 */
export function contextWindowFile(pantoHome: string, probe: boolean): ContextWindowStore {
  const path = join(pantoHome, CONTEXT_WINDOWS_FILE);
  const load = async (): Promise<Windows> => {
    try {
      const value: unknown = JSON.parse(await readFile(path, "utf8"));
      return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Windows) : {};
    } catch {
      return {};
    }
  };
  return {
    probe,
    async read(baseURL, model) {
      const tokens = (await load())[baseURL]?.[model]?.context_window;
      return typeof tokens === "number" && Number.isSafeInteger(tokens) && tokens > 0 ? tokens : undefined;
    },
    async write(baseURL, model, tokens) {
      const windows = await load();
      if (windows[baseURL]?.[model]?.context_window === tokens) return;
      windows[baseURL] = {
        ...windows[baseURL],
        [model]: { context_window: tokens, reported: new Date().toISOString() },
      };
      // Whole or not at all: a reader never sees half a file.
      const temporary = `${path}.${process.pid}.tmp`;
      await writeFile(temporary, `${JSON.stringify(windows, null, 2)}\n`, { mode: 0o600 });
      await rename(temporary, path);
    },
  };
}
