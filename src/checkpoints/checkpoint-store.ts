import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { makeFolder } from "../core/index.js";
import { projectSlug } from "../session/index.js";
import { checkpointsHome } from "./checkpoints-home.js";
import { type GitOutput, runGit } from "./git-process.js";
import { projectExcludePath, type Workspace } from "./locate-workspace.js";

/**
 * A workspace's private checkpoint store under `$PANTO_HOME/checkpoints/<project>/`: a git object
 * folder of its own (`git/`), and per session an index file recording the workspace as panto last
 * saw it and a list of the objects its checkpoints name (`sessions/`). Git works on it with
 * GIT_DIR, GIT_INDEX_FILE and GIT_WORK_TREE pointing here and at the workspace; the project's own
 * `.git` is only ever read.
 */
export interface CheckpointStore {
  dir: string;
  gitDir: string;
  objectsDir: string;
  workspace: Workspace;
}

/**
 * Attributes that beat every `.gitattributes` of the project ($GIT_DIR/info/attributes comes
 * last): no filters (an LFS clean filter would store a pointer and run a program), no line-ending
 * conversion, no re-encoding. Checkpoints keep the bytes on disk.
 */
const ATTRIBUTES = "* -text -filter -ident !eol !working-tree-encoding\n";

/** Settings for git runs on the store, on top of the safe ones every run gets. */
const STORE_CONFIG = [
  "core.bare=false",
  "core.symlinks=true",
  "core.fileMode=true",
  "core.ignoreCase=false",
  "core.untrackedCache=false",
  "core.splitIndex=false",
  "core.sparseCheckout=false",
  "index.sparse=false",
  "core.preloadIndex=true",
  "core.looseCompression=6",
];

/** The store folder of the workspace at `root`. */
export function storeDirectory(pantoHome: string, root: string): string {
  return join(checkpointsHome(pantoHome), projectSlug(root));
}

/** The index file recording the workspace as session `sessionId` last saw it. */
export function sessionIndexPath(store: Pick<CheckpointStore, "dir">, sessionId: string): string {
  return join(store.dir, "sessions", `${sessionId}.index`);
}

/** Where a finished session's index is kept for the next session to start from (one per store). */
export function seedIndexPath(store: Pick<CheckpointStore, "dir">): string {
  return join(store.dir, "sessions", `${SEED_INDEX}.index`);
}

/** The name the seed index goes by among the sessions' files. */
export const SEED_INDEX = "seed";

/** The list of object ids session `sessionId`'s checkpoints and rewinds name, one per line. */
export function sessionObjectsPath(store: Pick<CheckpointStore, "dir">, sessionId: string): string {
  return join(store.dir, "sessions", `${sessionId}.objects`);
}

/** Writes `text` unless the file holds it already; says whether it wrote. */
async function writeIfChanged(path: string, text: string): Promise<boolean> {
  const current = await readFile(path, "utf8").catch(() => undefined);
  if (current === text) return false;
  await writeFile(path, text, { mode: 0o600 });
  return true;
}

/**
 * Copies the project's `.git/info/exclude` into the store's, so the store ignores what the project
 * ignores (its `.gitignore` files are read in the work tree as they are). Cheap when unchanged.
 * Says whether the patterns changed.
 */
export async function syncExcludes(store: CheckpointStore): Promise<boolean> {
  const source = projectExcludePath(store.workspace);
  const text = source === undefined ? "" : await readFile(source, "utf8").catch(() => "");
  return await writeIfChanged(join(store.gitDir, "info", "exclude"), text);
}

/**
 * Opens (creating on first use) the store of `workspace`. The git folder is laid out by hand, which
 * is all `git init` would do here minus its templates (sample hooks among them).
 */
export async function openCheckpointStore(pantoHome: string, workspace: Workspace): Promise<CheckpointStore> {
  const dir = storeDirectory(pantoHome, workspace.root);
  const gitDir = join(dir, "git");
  const objectsDir = join(gitDir, "objects");
  for (const folder of [objectsDir, join(gitDir, "refs"), join(gitDir, "info"), join(dir, "sessions")])
    await makeFolder(folder, 0o700);
  await writeIfChanged(join(gitDir, "HEAD"), "ref: refs/heads/main\n");
  await writeIfChanged(join(gitDir, "config"), "[core]\n\trepositoryformatversion = 0\n\tbare = false\n");
  await writeIfChanged(join(gitDir, "info", "attributes"), ATTRIBUTES);
  await writeIfChanged(join(dir, "workspace"), `${workspace.root}\n`);
  const store = { dir, gitDir, objectsDir, workspace };
  await syncExcludes(store);
  return store;
}

/** Runs git on the store with `indexFile` as its index and the workspace as its work tree. */
export function storeGit(
  store: CheckpointStore,
  indexFile: string,
  args: readonly string[],
  options: { input?: Buffer | string; maxOutputBytes?: number } = {},
): Promise<GitOutput> {
  const excludes = store.workspace.excludesFile;
  const config = excludes === undefined ? STORE_CONFIG : [...STORE_CONFIG, `core.excludesFile=${excludes}`];
  return runGit({
    args,
    config,
    cwd: store.workspace.root,
    env: { GIT_DIR: store.gitDir, GIT_WORK_TREE: store.workspace.root, GIT_INDEX_FILE: indexFile },
    ...options,
  });
}
