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

/** A folder's listing and the folder's status when it was read. */
interface Known {
  listing: Listing;
  ctimeMs: number;
  ino: number;
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
  #known = new Map<string, Known>();
  #next = new Map<string, Known>();

  /** The listing of `folder`, read now unless it is known unchanged since before `sinceMs`. */
  read(folder: string, sinceMs: number): Listing {
    const status = lstatOrUndefined(folder);
    const known = this.#known.get(folder);
    if (
      status !== undefined &&
      known !== undefined &&
      known.ino === status.ino &&
      known.ctimeMs === status.ctimeMs &&
      status.ctimeMs < sinceMs
    ) {
      this.#next.set(folder, known);
      return known.listing;
    }
    const listing = listingOf(readEntries(folder));
    if (status?.isDirectory()) {
      this.#next.set(folder, { listing, ctimeMs: status.ctimeMs, ino: status.ino });
    }
    return listing;
  }

  /** Ends a walk: what it did not read again is forgotten. */
  settle(): void {
    this.#known = this.#next;
    this.#next = new Map();
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
  const stack = [...roots].reverse();
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
    if (listing.git !== undefined) {
      const at = path.join(folder, ".git");
      (listing.git === "directory" ? found.gitDirectories : found.pointers).push(at);
    }
    if (listing.gitmodules) found.gitmodules.push(path.join(folder, ".gitmodules"));
    for (let index = listing.subfolders.length - 1; index >= 0; index -= 1) {
      stack.push(path.join(folder, listing.subfolders[index] ?? ""));
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
