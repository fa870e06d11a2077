import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import path from "node:path";

/** The folders a sandboxed run keeps on this machine, removed when the run ends. */
export interface PrivateFolders {
  /** The private temporary folder commands write to (mounted on /tmp under bubblewrap). */
  tmp: string;
  /** An empty file nobody may read, laid over hidden files. */
  sealedFile: string;
  /**
   * Touched just before each command: its ctime then is the file system's "now", which the check
   * after the command compares ctimes with (the system clock may lag the file system's by a tick).
   */
  stampFile: string;
  remove(): Promise<void>;
}

/** Creates them under `hostTmpDir` (mode 0700, so other users see nothing of them). */
export function createPrivateFolders(hostTmpDir: string): PrivateFolders {
  const base = mkdtempSync(path.join(hostTmpDir, "panto-sandbox-"));
  const tmp = path.join(base, "tmp");
  mkdirSync(tmp, { mode: 0o700 });
  const sealedFile = path.join(base, "sealed");
  writeFileSync(sealedFile, "", { mode: 0o000 });
  chmodSync(sealedFile, 0o000);
  const stampFile = path.join(base, "stamp");
  writeFileSync(stampFile, "", { mode: 0o600 });
  return {
    tmp,
    sealedFile,
    stampFile,
    remove: () => rm(base, { recursive: true, force: true }),
  };
}
