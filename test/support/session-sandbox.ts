import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach } from "vitest";
import { openSession, type Session } from "../../src/session/index.js";

/** A fresh temporary folder for each test of a file, and the sessions the test opens in it. */
export interface SessionSandbox {
  /** The current test's folder; also the `cwd` of every session opened here. */
  readonly dir: string;
  /** `s.jsonl` in that folder. */
  readonly path: string;
  /** Opens (or creates) the session at `path`; it is closed after the test, before its folder goes. */
  open(path: string, onWarning?: (message: string) => void): Promise<Session>;
}

/** Call at the top of a test file: registers the hooks that make and remove each test's folder. */
export function useSessionSandbox(): SessionSandbox {
  const opened: Session[] = [];
  const sandbox = {
    dir: "",
    path: "",
    async open(path: string, onWarning?: (message: string) => void): Promise<Session> {
      const options = onWarning === undefined ? { cwd: sandbox.dir } : { cwd: sandbox.dir, onWarning };
      const session = await openSession(path, options);
      opened.push(session);
      return session;
    },
  };
  beforeEach(async () => {
    sandbox.dir = await mkdtemp(join(tmpdir(), "panto-session-"));
    sandbox.path = join(sandbox.dir, "s.jsonl");
  });
  afterEach(async () => {
    for (const session of opened.splice(0)) await session.close();
    await rm(sandbox.dir, { recursive: true, force: true });
  });
  return sandbox;
}
