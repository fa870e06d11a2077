import { copyFile, readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import type { FileChange, FileMode, FileVersion, UncoveredPath } from "../session/index.js";
import { type CheckpointStore, storeGit } from "./checkpoint-store.js";
import { nulRecords } from "./git-process.js";
import {
  ignoredFolders,
  type Listing,
  type ListingSource,
  listPaths,
  listWorkspace,
} from "./list-workspace.js";
import { hasLooseObject, writeLooseBlob } from "./loose-object.js";
import { projectHolds } from "./project-objects.js";
import { type PathState, pathState, permOf, readContent } from "./read-workspace-file.js";
import { type WatchedChanges, WorkspaceWatcher } from "./workspace-watcher.js";

/** Limits of what a workspace snapshot covers. */
export interface SnapshotLimits {
  /** Files larger than this are left out (reported as "too-large"). */
  maxFileBytes: number;
  /** A listing longer than this many bytes of paths means the workspace is too large to checkpoint. */
  maxListingBytes: number;
  /**
   * Watch the workspace's folders so a refresh looks only at what changed (default); without, every
   * refresh asks git to compare every file.
   */
  watch: boolean;
}

/** What changed in the workspace since the previous refresh, and what could not be covered. */
export interface WorkspaceChanges {
  changes: FileChange[];
  /** Files over the size cap, special files, nested repositories: present now and never stored. */
  uncovered: UncoveredPath[];
  /** With `ignored: true`: the ignored files and wholly ignored folders ("dir/") there are now. */
  ignored: string[];
}

/** A path's state as the index records it; `size` is unknown for entries read back from disk. */
interface Recorded {
  oid: string;
  mode: FileMode;
  size?: number;
  /** Permission bits, for content panto read itself (not for entries read back from disk). */
  perm?: number;
}

/** Paths to change in the index, and what to report. */
interface Plan {
  add: Map<string, PathState & { kind: "file" }>;
  remove: string[];
  forceRemove: string[];
  uncovered: UncoveredPath[];
}

/** How many paths are examined at once. */
const CONCURRENCY = 32;
/**
 * From this many recorded files on, tracked and untracked paths are listed by two git processes in
 * parallel (the stat pass on several threads); below it one process costs less than starting two.
 */
const PARALLEL_LISTING_FILES = 5000;

async function mapLimited<T, R>(items: readonly T[], work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, items.length) }, worker));
  return results;
}

/** A recorded state as a change names it; a size not known yet is -1 until the recorder reads it. */
function version(entry: Recorded): FileVersion {
  return {
    oid: entry.oid,
    mode: entry.mode,
    size: entry.size ?? -1,
    ...(entry.perm === undefined ? {} : { perm: entry.perm }),
  };
}

function sameRecorded(a: Recorded | undefined, b: Recorded): boolean {
  return a !== undefined && a.oid === b.oid && a.mode === b.mode;
}

/**
 * The workspace as one session last recorded it: a git index in the checkpoint store, kept in step
 * with the files by `refresh`. Git finds what differs (its stat cache makes that cheap, and it
 * applies the project's ignore rules); panto stores the new content itself, once per distinct
 * content, and never copies what the project's own repository holds until a checkpoint needs it.
 */
export class WorkspaceIndex {
  #recorded: Map<string, Recorded> | undefined;
  #watcher: WorkspaceWatcher | undefined;
  /** Nested repositories last seen (never covered; named in every workspace checkpoint). */
  #nested = new Set<string>();
  /**
   * Paths seen over the size cap (or special) and so left out of the index: when one comes back
   * within the cap, its earlier content is unknown, which is reported instead of a creation.
   */
  readonly #unrecorded = new Set<string>();

  constructor(
    readonly store: CheckpointStore,
    readonly indexFile: string,
    readonly limits: SnapshotLimits,
  ) {}

  /**
   * Brings the index up to date with the workspace and returns what changed since the previous
   * refresh. A new index starts from the latest one of another session of this workspace (its stat
   * data holds here), else from nothing: then every file is recorded and no change reported.
   */
  async refresh(options: { ignored?: boolean } = {}): Promise<WorkspaceChanges> {
    const recorded = await this.#load();
    const baseline = recorded.size === 0;
    const scope = await this.#scope();
    if (scope.kind === "paths" && scope.paths.length === 0)
      return { changes: [], uncovered: this.#nestedList(), ignored: [] };
    const withIgnored = options.ignored === true;
    const listing =
      scope.kind === "all"
        ? await listWorkspace(this.#source(), withIgnored, recorded.size >= PARALLEL_LISTING_FILES)
        : await listPaths(this.#source(), scope.paths, withIgnored);
    if (scope.kind === "all") this.#nested = new Set(listing.nested);
    else for (const path of listing.nested) this.#nested.add(path);
    const plan = await this.#plan(listing, recorded);
    const result = { uncovered: [...plan.uncovered, ...this.#nestedList()], ignored: listing.ignored };
    if (scope.kind === "paths") await this.#watchNewFolders(scope.paths, listing);
    if (plan.add.size === 0 && plan.remove.length === 0 && plan.forceRemove.length === 0)
      return { changes: [], ...result };
    await this.#update(plan);
    const changes = baseline
      ? await this.#recordBaseline(plan, recorded)
      : await this.#record(plan, recorded);
    return { changes, ...result };
  }

  /** Makes the next refresh look at everything (the ignore rules changed, say). */
  lookAtEverything(why: string): void {
    this.#watcher?.doubt(why);
  }

  /** Stops watching the workspace. */
  close(): void {
    this.#watcher?.close();
  }

  #source(): ListingSource {
    return { store: this.store, indexFile: this.indexFile, maxListingBytes: this.limits.maxListingBytes };
  }

  #nestedList(): UncoveredPath[] {
    return [...this.#nested].map((path) => ({ path, reason: "nested-repository" }));
  }

  /**
   * What this refresh must look at: only the paths the watcher saw change, or everything (no
   * watcher, its first refresh, or any doubt, after which it starts over).
   */
  async #scope(): Promise<WatchedChanges> {
    if (!this.limits.watch) return { kind: "all", why: "not watching" };
    this.#watcher ??= new WorkspaceWatcher(this.store.workspace.root);
    const changes = await this.#watcher.take();
    if (changes.kind === "all") {
      // Watch from now on (before git looks), skipping what is ignored: this refresh sees the rest.
      const ignored = await ignoredFolders(this.#source());
      await this.#watcher.start(ignored, ignored);
    }
    return changes;
  }

  /** Watches the folders a refresh found new: those of new files, and changed paths that are folders now. */
  async #watchNewFolders(paths: readonly string[], listing: Listing): Promise<void> {
    const watcher = this.#watcher;
    if (watcher === undefined) return;
    const ignored = new Set(
      listing.ignored.filter((path) => path.endsWith("/")).map((path) => path.slice(0, -1)),
    );
    const candidates = new Set<string>();
    for (const path of [...listing.untracked, ...paths]) {
      candidates.add(path);
      for (let cut = path.lastIndexOf("/"); cut > 0; cut = path.lastIndexOf("/", cut - 1))
        candidates.add(path.slice(0, cut));
    }
    for (const folder of [...candidates].sort()) {
      const state = await pathState(join(this.store.workspace.root, folder));
      if (state.kind === "directory") await watcher.add(folder, ignored.has(folder));
      // A watched folder deleted meanwhile: its watch ends (a folder made again by its name is new).
      else await watcher.watches(folder);
    }
  }

  async #load(): Promise<Map<string, Recorded>> {
    if (this.#recorded !== undefined) return this.#recorded;
    if ((await stat(this.indexFile).catch(() => undefined)) === undefined) await this.#seed();
    const exists = (await stat(this.indexFile).catch(() => undefined)) !== undefined;
    this.#recorded = exists ? await this.#entries() : new Map();
    return this.#recorded;
  }

  /** Starts a new session's index from the latest one of this workspace. */
  async #seed(): Promise<void> {
    const folder = join(this.store.dir, "sessions");
    const names = await readdir(folder).catch(() => [] as string[]);
    let latest: { path: string; time: number } | undefined;
    for (const name of names.filter((candidate) => candidate.endsWith(".index"))) {
      const path = join(folder, name);
      const info = await stat(path).catch(() => undefined);
      if (info !== undefined && (latest === undefined || info.mtimeMs > latest.time))
        latest = { path, time: info.mtimeMs };
    }
    if (latest !== undefined) await copyFile(latest.path, this.indexFile);
  }

  /** Every entry of the index. */
  async #entries(): Promise<Map<string, Recorded>> {
    const entries = new Map<string, Recorded>();
    const { stdout } = await storeGit(this.store, this.indexFile, ["ls-files", "-z", "-s"]);
    for (const record of nulRecords(stdout)) {
      const tab = record.indexOf("\t");
      const [mode, oid] = record.slice(0, tab).split(" ");
      if (mode !== undefined && oid !== undefined)
        entries.set(record.slice(tab + 1), { oid, mode: mode as FileMode });
    }
    return entries;
  }

  async #plan(listing: Listing, recorded: Map<string, Recorded>): Promise<Plan> {
    const plan: Plan = { add: new Map(), remove: [], forceRemove: [], uncovered: [] };
    const paths = [...listing.tracked, ...listing.untracked];
    const states = await mapLimited(paths, (path) => pathState(join(this.store.workspace.root, path)));
    paths.forEach((path, index) => {
      const state = states[index] as PathState;
      const known = recorded.has(path);
      if (state.kind === "file" && state.size <= this.limits.maxFileBytes) {
        plan.add.set(path, state);
        if (this.#unrecorded.delete(path) && !known) plan.uncovered.push({ path, reason: "too-large" });
      } else if (state.kind === "absent" || state.kind === "directory") {
        if (known) plan.remove.push(path);
        this.#unrecorded.delete(path);
      } else {
        plan.uncovered.push({ path, reason: state.kind === "special" ? "special-file" : "too-large" });
        this.#unrecorded.add(path);
        if (known) plan.forceRemove.push(path);
      }
    });
    return plan;
  }

  /** Records the new stat data in the index (no objects: panto stores content itself). */
  async #update(plan: Plan): Promise<void> {
    const paths = [...plan.add.keys(), ...plan.remove];
    if (paths.length > 0)
      await storeGit(
        this.store,
        this.indexFile,
        ["update-index", "-z", "--add", "--remove", "--info-only", "--stdin"],
        { input: `${paths.join("\0")}\0` },
      );
    if (plan.forceRemove.length > 0)
      await storeGit(this.store, this.indexFile, ["update-index", "-z", "--force-remove", "--stdin"], {
        input: `${plan.forceRemove.join("\0")}\0`,
      });
  }

  /**
   * Stores each added path's content and returns the changes. Read after git took its stat data, so
   * a file changed in between is stored as read now and its stale stat data makes the next refresh
   * look at it again.
   */
  async #record(plan: Plan, recorded: Map<string, Recorded>): Promise<FileChange[]> {
    const paths = [...plan.add.keys()];
    const stored = await mapLimited(paths, (path) => {
      const state = plan.add.get(path);
      return this.#store(path, state?.mode ?? "100644", state);
    });
    const changes: FileChange[] = [];
    paths.forEach((path, index) => {
      const after = stored[index];
      const before = recorded.get(path);
      if (after === undefined) return;
      recorded.set(path, after);
      const unknownBefore = before === undefined && plan.uncovered.some((item) => item.path === path);
      if (!unknownBefore && !sameRecorded(before, after))
        changes.push({ path, before: before === undefined ? null : version(before), after: version(after) });
    });
    for (const path of [...plan.remove, ...plan.forceRemove]) {
      const before = recorded.get(path);
      recorded.delete(path);
      if (before !== undefined && plan.remove.includes(path))
        changes.push({ path, before: version(before), after: null });
    }
    return changes;
  }

  async #store(
    path: string,
    mode: FileMode,
    state: (PathState & { kind: "file" }) | undefined,
  ): Promise<Recorded | undefined> {
    const content = await readContent(join(this.store.workspace.root, path), mode).catch(() => undefined);
    if (content === undefined) return undefined;
    const oid = await writeLooseBlob(this.store.objectsDir, content);
    return { oid, mode, size: content.length, ...(state === undefined ? {} : permOf(state)) };
  }

  /**
   * The first refresh of an index: git's ids for everything, and only the content the project's
   * repository does not hold is stored (uncommitted work); the rest is copied when a checkpoint
   * first needs it as the state before a change.
   */
  async #recordBaseline(plan: Plan, recorded: Map<string, Recorded>): Promise<FileChange[]> {
    const entries = await this.#entries();
    const held = await projectHolds(this.store, [
      ...new Set([...entries.values()].map((entry) => entry.oid)),
    ]);
    await mapLimited([...entries], async ([path, entry]) => {
      const state = plan.add.get(path);
      recorded.set(path, state === undefined ? entry : { ...entry, size: state.size, ...permOf(state) });
      if (held.has(entry.oid) || (await hasLooseObject(this.store.objectsDir, entry.oid))) return;
      const stored = await this.#store(path, entry.mode, state);
      if (stored !== undefined) recorded.set(path, stored);
    });
    return [];
  }
}
