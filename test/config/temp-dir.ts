import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { useTempDir as useSharedTempDir } from "../support/use-temp-dir.js";

/** Registers hooks giving each test a fresh real temp directory (symlinks resolved), removed afterwards. */
export function useTempDir(): () => string {
  return useSharedTempDir("panto-config-", { resolveLinks: true });
}

/** Writes a file, creating its parent directories. */
export async function put(file: string, content: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, content);
}
