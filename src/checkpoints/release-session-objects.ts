import { appendFile, lstat, readdir, readFile, rm, unlink } from "node:fs/promises";
import { dirname, join } from "node:path";
import { makeFolder } from "../core/index.js";
import {
  type CheckpointStore,
  SEED_INDEX,
  sessionIndexPath,
  sessionObjectsPath,
  storeDirectory,
  storeGit,
} from "./checkpoint-store.js";
import { checkpointsHome } from "./checkpoints-home.js";
import { nulRecords } from "./git-process.js";

/** What deleting a session freed in the checkpoint stores. */
export interface ReleasedObjects {
  objects: number;
  bytes: number;
  /** Stores no session used any more, removed whole. */
  storesRemoved: number;
}

const SESSION_FILE = /^(.+)\.(index|objects)$/;

async function sizeOf(path: string): Promise<number> {
  const info = await lstat(path).catch(() => undefined);
  if (info === undefined) return 0;
  if (!info.isDirectory()) return info.size;
  let total = 0;
  for (const name of await readdir(path)) total += await sizeOf(join(path, name));
  return total;
}

async function countObjects(objectsDir: string): Promise<number> {
  let count = 0;
  for (const folder of await readdir(objectsDir).catch(() => [] as string[]))
    if (/^[0-9a-f]{2}$/.test(folder)) count += (await readdir(join(objectsDir, folder))).length;
  return count;
}

/** The object ids the other sessions of a store still use: their checkpoints' and their index's. */
async function objectsInUse(store: CheckpointStore, sessionIds: readonly string[]): Promise<Set<string>> {
  const used = new Set<string>();
  for (const id of sessionIds) {
    const listed = await readFile(sessionObjectsPath(store, id), "utf8").catch(() => "");
    for (const line of listed.split("\n")) if (line !== "") used.add(line.trim());
    const index = sessionIndexPath(store, id);
    if ((await lstat(index).catch(() => undefined)) === undefined) continue;
    const { stdout } = await storeGit(store, index, ["ls-files", "-z", "-s"]);
    for (const record of nulRecords(stdout)) {
      const oid = record.split(" ")[1];
      if (oid !== undefined) used.add(oid);
    }
  }
  return used;
}

/** Deletes the objects no remaining session uses, written no later than `writtenBy` (ms). */
async function pruneObjects(
  store: CheckpointStore,
  used: Set<string>,
  writtenBy: number,
): Promise<ReleasedObjects> {
  const released: ReleasedObjects = { objects: 0, bytes: 0, storesRemoved: 0 };
  for (const folder of await readdir(store.objectsDir).catch(() => [] as string[])) {
    if (!/^[0-9a-f]{2}$/.test(folder)) continue;
    for (const name of await readdir(join(store.objectsDir, folder))) {
      const path = join(store.objectsDir, folder, name);
      const info = await lstat(path).catch(() => undefined);
      // An object written since is another session's work in progress, not yet on its lists.
      if (info === undefined || used.has(folder + name) || info.mtimeMs > writtenBy) continue;
      await unlink(path).catch(() => undefined);
      released.objects++;
      released.bytes += info.size;
    }
  }
  return released;
}

async function releaseFromStore(
  dir: string,
  sessionId: string,
  writtenBy: number,
): Promise<ReleasedObjects | undefined> {
  const names = await readdir(join(dir, "sessions")).catch(() => [] as string[]);
  const mine = names.filter((name) => SESSION_FILE.exec(name)?.[1] === sessionId);
  if (mine.length === 0) return undefined;
  for (const name of mine) await rm(join(dir, "sessions", name), { force: true });
  const others = [
    ...new Set(names.map((name) => SESSION_FILE.exec(name)?.[1]).filter((id) => id !== undefined)),
  ].filter((id) => id !== sessionId);
  const objectsDir = join(dir, "git", "objects");
  // The seed index only speeds up a next session: with no session left, the store goes whole.
  if (others.every((id) => id === SEED_INDEX)) {
    const released = {
      objects: await countObjects(objectsDir),
      bytes: await sizeOf(objectsDir),
      storesRemoved: 1,
    };
    await rm(dir, { recursive: true, force: true });
    return released;
  }
  const root = (await readFile(join(dir, "workspace"), "utf8")).trim();
  const store: CheckpointStore = { dir, gitDir: join(dir, "git"), objectsDir, workspace: { root } };
  return await pruneObjects(store, await objectsInUse(store, others), writtenBy);
}

/**
 * Frees what only session `sessionId` used in the checkpoint stores: its index and object list
 * go, then every object no other session of the store names (in its checkpoints or its index) is
 * deleted, except those written after `writtenBy` (the removed session's last write). A store no
 * session uses any more is removed whole.
 */
export async function releaseSessionObjects(
  pantoHome: string,
  sessionId: string,
  writtenBy: number,
): Promise<ReleasedObjects> {
  const total: ReleasedObjects = { objects: 0, bytes: 0, storesRemoved: 0 };
  const home = checkpointsHome(pantoHome);
  for (const name of await readdir(home).catch(() => [] as string[])) {
    const released = await releaseFromStore(join(home, name), sessionId, writtenBy);
    if (released === undefined) continue;
    total.objects += released.objects;
    total.bytes += released.bytes;
    total.storesRemoved += released.storesRemoved;
  }
  return total;
}

/**
 * Lists the objects a fork's copied checkpoints name (by workspace root) under its own id, so
 * deleting the parent keeps them.
 */
export async function adoptObjects(
  pantoHome: string,
  sessionId: string,
  objects: ReadonlyMap<string, ReadonlySet<string>>,
): Promise<void> {
  for (const [root, oids] of objects) {
    const path = sessionObjectsPath({ dir: storeDirectory(pantoHome, root) }, sessionId);
    await makeFolder(dirname(path), 0o700);
    await appendFile(path, [...oids].map((oid) => `${oid}\n`).join(""), { mode: 0o600 });
  }
}
