import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import path from "node:path";

/** The folders a sandboxed run keeps on this machine, removed when the run ends. */
export interface PrivateFolders {
  /** The private temporary folder commands write to (mounted on /tmp under bubblewrap). */
  tmp: string;
  /** An empty file nobody may read, laid over hidden files. */
  sealedFile: string;
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
  return {
    tmp,
    sealedFile,
    remove: () => rm(base, { recursive: true, force: true }),
  };
}
