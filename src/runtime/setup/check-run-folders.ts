import { constants } from "node:fs";
import { access, mkdtemp, rmdir, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { checkpointsHome } from "../../checkpoints/checkpoints-home.js";
import { describeFileError, isPathProblem, makeFolder, pathKind } from "../../core/index.js";
import { sessionDirectory } from "../../session/index.js";
import { UsageError } from "./setup-errors.js";

export interface RunFolders {
  pantoHome: string;
  projectRoot: string;
  env: NodeJS.ProcessEnv;
  /** Config `checkpoints` is not false: the checkpoint store under panto's home is written too. */
  checkpoints: boolean;
}

/**
 * Checks, before anything else is done, that every folder a run writes to can be written: the
 * project's sessions folder and the checkpoint store under panto's home, and the temporary folder
 * (session locks, the sandbox's private folders). A path that cannot be used is a UsageError
 * naming it, the variable that chose it, and what is wrong, instead of a failure at the first write.
 */
export async function checkRunFolders(folders: RunFolders): Promise<void> {
  const home = `panto's home folder ${folders.pantoHome}${folders.env.PANTO_HOME === undefined ? "" : " (PANTO_HOME)"}`;
  // The temporary folder is checked beside panto's home, each a few file operations waiting on the
  // disk; the two folders under the home one after the other, as both may make the home itself.
  // When both sides fail, the home's failure is the one reported, as when all ran in turn.
  const checks = await Promise.allSettled([
    (async () => {
      await checkWritableFolder(sessionDirectory(folders.pantoHome, folders.projectRoot), home);
      if (folders.checkpoints) await checkWritableFolder(checkpointsHome(folders.pantoHome), home);
    })(),
    checkTemporaryFolder(tmpdir()),
  ]);
  const failed = checks.find((check) => check.status === "rejected");
  if (failed !== undefined) throw failed.reason;
}

/**
 * Checks `path` can be made (with its parents, 0700) and written, by making it; what this made is
 * removed again, so a run that writes nothing leaves nothing (the first write makes it for good).
 */
async function checkWritableFolder(path: string, label: string): Promise<void> {
  try {
    for (let attempt = 1; ; attempt++) {
      const failed = await makeAndCheck(path).then(
        () => undefined,
        (error: unknown) => error,
      );
      if (failed === undefined) return;
      // A folder gone between making it and the next step: another run starting at the same moment
      // made it too and removed it after its own check. Trying again settles it; any other answer
      // stands (under /proc every attempt fails alike).
      if (!vanished(failed) || attempt === 3) throw failed;
    }
  } catch (error) {
    const problem = isPathProblem(error)
      ? error.message
      : `cannot write to ${describeFileError(path, error)}`;
    throw new UsageError(`${label} cannot be used: ${problem}`, "path", { cause: error });
  }
}

/** Makes `path` (with its parents, 0700), checks it can be written, and removes what it made. */
async function makeAndCheck(path: string): Promise<void> {
  const created = await makeFolder(path, 0o700);
  try {
    await access(path, constants.W_OK);
  } finally {
    for (const folder of created.reverse()) await rmdir(folder).catch(() => undefined);
  }
}

function vanished(error: unknown): boolean {
  const cause = isPathProblem(error) ? error.cause : error;
  const code = (cause as NodeJS.ErrnoException | undefined)?.code;
  // EEXIST reaches here only when the folder was there at mkdir and gone just after (makeFolder
  // accepts one that stays): the other run's check removed it.
  return code === "ENOENT" || code === "EEXIST";
}

/** The temporary folder must already exist (panto does not create the system's) and take a new folder. */
async function checkTemporaryFolder(path: string): Promise<void> {
  const label = `the temporary folder ${path}${process.env.TMPDIR === undefined ? "" : " (TMPDIR)"}`;
  const info = await stat(path).catch((error: unknown) => error as NodeJS.ErrnoException);
  if (info instanceof Error) {
    const why = info.code === "ENOENT" ? "it does not exist" : describeFileError(path, info);
    throw new UsageError(
      `${label} cannot be used: ${why}; create it or set TMPDIR to a writable folder`,
      "path",
    );
  }
  if (!info.isDirectory())
    throw new UsageError(
      `${label} cannot be used: it is ${pathKind(info) ?? "a file"}, not a folder; set TMPDIR to a writable folder`,
      "path",
    );
  try {
    await rmdir(await mkdtemp(join(path, "panto-check-")));
  } catch (error) {
    throw new UsageError(
      `${label} cannot be used: cannot create a folder in ${describeFileError(path, error)}; set TMPDIR to a writable folder`,
      "path",
      { cause: error },
    );
  }
}
