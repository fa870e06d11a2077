import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach } from "vitest";

/** Registers hooks giving each test a fresh real temp directory (symlinks resolved), removed afterwards. */
export function useTempDir(): () => string {
  let current: string | undefined;
  beforeEach(async () => {
    current = await realpath(await mkdtemp(path.join(os.tmpdir(), "panto-config-")));
  });
  afterEach(async () => {
    if (current !== undefined) await rm(current, { recursive: true, force: true });
    current = undefined;
  });
  return () => {
    if (current === undefined) throw new Error("temp dir used outside a test");
    return current;
  };
}

/** Writes a file, creating its parent directories. */
export async function put(file: string, content: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, content);
}
