import type { ChildProcess } from "node:child_process";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import { compileSessionModule, killAndWait } from "../session/child-session-process.js";
import { makeTempDir, removeTempDir } from "../session/session-test-helpers.js";

/** What a session-lock test works with: a compiled lock-holder script and, per test, a fresh session path. */
export interface LockHolderSandbox {
  /** The folder the session module is compiled into (one per test file), other scripts beside it. */
  moduleDir: string;
  /** The compiled script other processes run to hold a lock. */
  holderScript: string;
  /** The current test's folder, and `s.jsonl` inside it. */
  dir: string;
  path: string;
  /** Child processes the test started; killed after it, before its folder goes. */
  readonly children: ChildProcess[];
}

/** Call at the top of a test file: registers the hooks that compile the holder and make each test's folder. */
export function useLockHolderSandbox(): LockHolderSandbox {
  const sandbox: LockHolderSandbox = { moduleDir: "", holderScript: "", dir: "", path: "", children: [] };
  beforeAll(async () => {
    sandbox.moduleDir = await makeTempDir();
    sandbox.holderScript = await compileSessionModule(sandbox.moduleDir);
  });
  afterAll(async () => {
    await removeTempDir(sandbox.moduleDir);
  });
  beforeEach(async () => {
    sandbox.dir = await makeTempDir();
    sandbox.path = join(sandbox.dir, "s.jsonl");
  });
  afterEach(async () => {
    for (const child of sandbox.children.splice(0)) await killAndWait(child, "SIGKILL");
    await removeTempDir(sandbox.dir);
  });
  return sandbox;
}
