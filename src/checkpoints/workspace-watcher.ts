import { type FSWatcher, watch } from "node:fs";
import { lstat, readdir } from "node:fs/promises";
import { join } from "node:path";

/** What changed since the last `take`: the paths to look at, or everything when the watcher cannot say. */
export type WatchedChanges = { kind: "paths"; paths: string[] } | { kind: "all"; why: string };

export interface WatcherLimits {
  /** More folders than this are not watched: every refresh looks at everything. */
  maxFolders: number;
  /** More changed paths than this between two refreshes: the next one looks at everything. */
  maxPaths: number;
}

export const DEFAULT_WATCHER_LIMITS: WatcherLimits = { maxFolders: 20_000, maxPaths: 5_000 };

/** Lets pending file-system events reach their callbacks: one poll phase of the event loop must pass. */
async function drainEvents(): Promise<void> {
  for (let round = 0; round < 2; round++) await new Promise<void>((resolve) => setImmediate(resolve));
}

function joinRelative(folder: string, name: string): string {
  return folder === "" ? name : `${folder}/${name}`;
}

/**
 * Watches the workspace's folders (each one on its own, never recursively into what is ignored)
 * so a refresh can look only at the paths that changed since the previous one instead of stat'ing
 * every file. Any doubt (a watch that failed, an error, too many changes, a changed ignore file)
 * makes the next `take` answer "all", and the caller looks at everything, as without a watcher.
 */
/** One folder's watch, and which folder it is (a folder deleted and made again is another one). */
interface FolderWatch {
  watcher: FSWatcher;
  ino: number;
}

export class WorkspaceWatcher {
  readonly #watchers = new Map<string, FolderWatch>();
  #changed = new Set<string>();
  #doubt: string | undefined = "the watch has not started";
  #closed = false;

  constructor(
    readonly root: string,
    readonly limits: WatcherLimits = DEFAULT_WATCHER_LIMITS,
  ) {}

  /**
   * (Re)starts watching every folder of the workspace except `.git`, the folders in `skip`
   * (ignored folders and nested repositories, relative, "dir/" or "dir") and their contents; the
   * ignored folders themselves are watched for what appears at their top. Changes from now on are
   * seen; the caller then looks at everything once.
   */
  async start(skip: readonly string[], ignoredFolders: readonly string[]): Promise<void> {
    this.#closeAll();
    const skipped = new Set(skip.map((path) => path.replace(/\/$/, "")));
    const folders: string[] = [];
    const walk = async (folder: string): Promise<boolean> => {
      const entries = await readdir(join(this.root, folder), { withFileTypes: true }).catch(() => []);
      // A nested repository is not covered: nothing in it is watched.
      if (folder !== "" && entries.some((entry) => entry.name === ".git")) return true;
      folders.push(folder);
      if (folders.length > this.limits.maxFolders) return false;
      for (const entry of entries) {
        const path = joinRelative(folder, entry.name);
        if (!entry.isDirectory() || entry.name === ".git" || skipped.has(path)) continue;
        if (!(await walk(path))) return false;
      }
      return true;
    };
    if (!(await walk(""))) {
      this.#doubt = `the workspace has more than ${this.limits.maxFolders} folders`;
      return;
    }
    this.#doubt = undefined;
    for (const folder of [...folders, ...ignoredFolders.map((path) => path.replace(/\/$/, ""))])
      this.#watch(folder);
  }

  /**
   * Watches a folder that appeared (found by a refresh) and, unless it is `ignored` (then only its
   * top is watched), the folders inside it. Its contents are looked at again next time, for what
   * changed before the watch began.
   */
  async add(folder: string, ignored: boolean): Promise<void> {
    if (this.#doubt !== undefined || (await this.watches(folder))) return;
    const entries = await readdir(join(this.root, folder), { withFileTypes: true }).catch(() => undefined);
    if (entries === undefined || entries.some((entry) => entry.name === ".git")) return;
    if (this.#watchers.size >= this.limits.maxFolders) {
      this.doubt(`the workspace has more than ${this.limits.maxFolders} folders`);
      return;
    }
    await this.#watch(folder);
    this.#note(folder);
    if (ignored) return;
    for (const entry of entries)
      if (entry.isDirectory()) await this.add(joinRelative(folder, entry.name), false);
  }

  /**
   * Whether `folder` (relative) is watched. A watch of a folder that was deleted (and maybe made
   * again: another folder by the same name) is ended here, with the watches inside it.
   */
  async watches(folder: string): Promise<boolean> {
    const known = this.#watchers.get(folder);
    if (known === undefined) return false;
    const now = await lstat(join(this.root, folder)).catch(() => undefined);
    if (now?.isDirectory() === true && now.ino === known.ino) return true;
    for (const [path, watch] of this.#watchers) {
      if (path === folder || path.startsWith(`${folder}/`)) {
        watch.watcher.close();
        this.#watchers.delete(path);
      }
    }
    return false;
  }

  /** Marks everything as possibly changed: the next `take` answers "all". */
  doubt(why: string): void {
    this.#doubt ??= why;
  }

  /** The paths changed since the previous `take` (after letting pending events arrive). */
  async take(): Promise<WatchedChanges> {
    await drainEvents();
    const changed = this.#changed;
    this.#changed = new Set();
    const doubt = this.#doubt;
    if (doubt !== undefined) {
      if (this.#watchers.size > 0) this.#doubt = undefined;
      return { kind: "all", why: doubt };
    }
    return { kind: "paths", paths: [...changed] };
  }

  close(): void {
    this.#closed = true;
    this.#closeAll();
  }

  #closeAll(): void {
    for (const watch of this.#watchers.values()) watch.watcher.close();
    this.#watchers.clear();
  }

  #note(path: string): void {
    if (this.#doubt !== undefined) return;
    this.#changed.add(path);
    if (path === ".gitignore" || path.endsWith("/.gitignore")) this.#doubt = `${path} changed`;
    if (this.#changed.size > this.limits.maxPaths) {
      this.#doubt = `more than ${this.limits.maxPaths} paths changed at once`;
      this.#changed.clear();
    }
  }

  async #watch(folder: string): Promise<void> {
    if (this.#closed) return;
    const absolute = join(this.root, folder);
    try {
      const { ino } = await lstat(absolute);
      const watcher = watch(absolute, { persistent: false }, (_event, name) => {
        this.#note(name === null ? folder : joinRelative(folder, name.toString()));
      });
      watcher.on("error", () => {
        watcher.close();
        if (this.#watchers.get(folder)?.watcher === watcher) this.#watchers.delete(folder);
        // A deleted folder's watch ends; its parent saw the deletion.
        this.#note(folder);
      });
      this.#watchers.set(folder, { watcher, ino });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "ENOENT" && code !== "ENOTDIR") this.#doubt = `a folder could not be watched (${code})`;
    }
  }
}
