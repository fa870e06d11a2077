import { mkdtemp, realpath, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach } from "vitest";

/**
 * Registers hooks giving each test a fresh temp directory named `prefix…`, removed afterwards;
 * with `resolveLinks`, its real path (symlinks such as macOS's /var -> /private/var resolved).
 */
export function useTempDir(prefix: string, options: { resolveLinks?: boolean } = {}): () => string {
  let current: string | undefined;
  beforeEach(async () => {
    const made = await mkdtemp(path.join(os.tmpdir(), prefix));
    current = options.resolveLinks === true ? await realpath(made) : made;
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
