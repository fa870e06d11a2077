import { type Dirent, lstatSync, readdirSync } from "node:fs";
import path from "node:path";

/** What a walk of the writable folders found that git may read. */
export interface FoundRepositories {
  /** Git directories: `.git` folders, and folders git takes for one (bare repositories). */
  gitDirectories: string[];
  /** `.git` files (pointers naming a git directory) and `.git` symlinks. */
  pointers: string[];
  /** `.gitmodules` files. */
  gitmodules: string[];
  /** Set when the walk stopped at the limit: folders were left unvisited. */
  stoppedAt?: number;
}

/** What one folder holds, as far as the walk cares. */
interface Listing {
  /** Git takes the folder itself for a git directory (a bare repository): not walked into. */
  gitDirectory: boolean;
  /** Its `.git` entry: a directory, or a pointer (file or symlink). */
  git: "directory" | "pointer" | undefined;
  gitmodules: boolean;
  /** The names of its subfolders (symlinks excluded). */
  subfolders: string[];
}

/** A folder's listing, the folder's status when it was read, and the last walk that reached it. */
interface Known {
  listing: Listing;
  ctimeMs: number;
  ino: number;
  walk: number;
}

/**
 * The listings the last walk read, so the next reads again only the folders whose entries may
 * have changed. A folder's ctime moves whenever an entry is added, removed or renamed in it (and
 * with its mtime, which a command can set back; ctime it cannot), so one lstat tells an unchanged
 * folder, about a third of a readdir's cost. A listing is read again when the folder's ctime or
 * inode differs from when it was read, or its ctime is at or after `since`: a change in the same
 * clock tick as the last read keeps the ctime the same, and every change the command made is at or
 * after `since`. Listings of folders a walk did not reach are dropped.
 */
export class FolderListings {
  readonly #known = new Map<string, Known>();
  #walk = 0;

  /** The listing of `folder`, read now unless it is known unchanged since before `sinceMs`. */
  read(folder: string, sinceMs: number): Listing {
    // The status before the listing: a change between the two is seen at the next walk.
    const status = lstatOrUndefined(folder);
    const known = this.#known.get(folder);
    if (
      status !== undefined &&
      known !== undefined &&
      known.ino === status.ino &&
      known.ctimeMs === status.ctimeMs &&
      status.ctimeMs < sinceMs
    ) {
      known.walk = this.#walk;
      return known.listing;
    }
    const listing = listingOf(readEntries(folder));
    if (status?.isDirectory()) {
      this.#known.set(folder, { listing, ctimeMs: status.ctimeMs, ino: status.ino, walk: this.#walk });
    } else {
      this.#known.delete(folder);
    }
    return listing;
  }

  /** Ends a walk: what it did not reach is forgotten. */
  settle(): void {
    for (const [folder, known] of this.#known) {
      if (known.walk !== this.#walk) this.#known.delete(folder);
    }
    this.#walk += 1;
  }
}

/**
 * Every repository inside `roots`, at any depth, by one readdir per folder (no stat): symlinks
 * are not followed (git only follows them for the `.git` entry, reported as a pointer), and no git
 * directory is walked into (its submodules and worktrees are the caller's). At most
 * `maxFolders` folders are read, so a huge tree costs a bounded time. With `cached`, the folders
 * unchanged since the last walk and since `since` (ns) are not read again (FolderListings).
 */
export function findRepositories(
  roots: readonly string[],
  maxFolders: number,
  cached?: { listings: FolderListings; since: bigint },
): FoundRepositories {
  const found: FoundRepositories = { gitDirectories: [], pointers: [], gitmodules: [] };
  const sinceMs = cached === undefined ? 0 : Number(cached.since / 1_000_000n);
  const read = (folder: string): Listing =>
    cached === undefined ? listingOf(readEntries(folder)) : cached.listings.read(folder, sinceMs);
  const stack = roots.map((root) => path.resolve(root)).reverse();
  let visited = 0;
  for (let folder = stack.pop(); folder !== undefined; folder = stack.pop()) {
    if (visited === maxFolders) {
      found.stoppedAt = visited;
      break;
    }
    visited += 1;
    const listing = read(folder);
    if (listing.gitDirectory) {
      found.gitDirectories.push(folder);
      continue;
    }
    // Joined by hand: the names hold no separator and the folders are normalised (path.join's
    // normalising was a fifth of a cached walk's time).
    const prefix = folder.endsWith(path.sep) ? folder : `${folder}${path.sep}`;
    if (listing.git !== undefined) {
      const at = `${prefix}.git`;
      (listing.git === "directory" ? found.gitDirectories : found.pointers).push(at);
    }
    if (listing.gitmodules) found.gitmodules.push(`${prefix}.gitmodules`);
    for (let index = listing.subfolders.length - 1; index >= 0; index -= 1) {
      stack.push(`${prefix}${listing.subfolders[index]}`);
    }
  }
  cached?.listings.settle();
  return found;
}

function listingOf(entries: readonly Dirent[]): Listing {
  const listing: Listing = {
    gitDirectory: looksLikeGitDirectory(entries),
    git: undefined,
    gitmodules: false,
    subfolders: [],
  };
  for (const entry of entries) {
    if (entry.name === ".git") listing.git = entry.isDirectory() ? "directory" : "pointer";
    else if (entry.name === ".gitmodules") listing.gitmodules = true;
    else if (entry.isDirectory()) listing.subfolders.push(entry.name);
  }
  return listing;
}

/**
 * As git's own test (setup.c, is_git_directory): a HEAD, and objects and refs folders or a
 * commondir file naming where they are. Git run in such a folder uses its config, unless the
 * folder has a `.git` entry, which git looks at first.
 */
function looksLikeGitDirectory(entries: readonly Dirent[]): boolean {
  const names = new Set(entries.map((entry) => entry.name));
  if (names.has(".git") || !names.has("HEAD")) return false;
  return (names.has("objects") && names.has("refs")) || names.has("commondir");
}

function readEntries(folder: string): Dirent[] {
  try {
    return readdirSync(folder, { withFileTypes: true });
  } catch {
    return [];
  }
}

function lstatOrUndefined(at: string) {
  try {
    return lstatSync(at, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}
