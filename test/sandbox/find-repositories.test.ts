import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FolderListings, findRepositories } from "../../src/sandbox/find-repositories.js";
import { useTempDir } from "../support/use-temp-dir.js";

/**
 * A `since` after every change these tests make: only the folders' ctime and inode tell the cached
 * walk what to read again (the rule `since` adds, for a change in the same clock tick as a read,
 * cannot be staged: no change leaves a folder's ctime as it was).
 */
const FUTURE = BigInt(Date.now() + 3_600_000) * 1_000_000n;

describe("the walk for repositories, with the listings of the last walk kept", () => {
  const temp = useTempDir("panto-find-repos-", { resolveLinks: true });

  function tree(): string {
    const root = temp();
    for (const folder of ["a/b/c", "a/d", "e/f/g"]) mkdirSync(path.join(root, folder), { recursive: true });
    return root;
  }

  it("finds a repository made in a folder it listed before, at any depth", () => {
    const root = tree();
    const listings = new FolderListings();
    const cached = { listings, since: FUTURE };
    expect(findRepositories([root], 100, cached).gitDirectories).toEqual([]);
    mkdirSync(path.join(root, "a/b/c/.git"));
    writeFileSync(path.join(root, "e/f/.git"), "gitdir: ../../elsewhere\n");
    writeFileSync(path.join(root, "a/.gitmodules"), "");
    const found = findRepositories([root], 100, cached);
    expect(found.gitDirectories).toEqual([path.join(root, "a/b/c/.git")]);
    expect(found.pointers).toEqual([path.join(root, "e/f/.git")]);
    expect(found.gitmodules).toEqual([path.join(root, "a/.gitmodules")]);
  });

  it("finds a repository in a folder moved in, or made where a removed one was", () => {
    const root = tree();
    const cached = { listings: new FolderListings(), since: FUTURE };
    findRepositories([root], 100, cached);
    mkdirSync(path.join(root, "x/y/.git"), { recursive: true });
    findRepositories([root], 100, cached);
    renameSync(path.join(root, "x"), path.join(root, "a/b/moved"));
    rmSync(path.join(root, "e/f/g"), { recursive: true });
    mkdirSync(path.join(root, "e/f/g/HEAD"), { recursive: true });
    mkdirSync(path.join(root, "e/f/g/objects"));
    mkdirSync(path.join(root, "e/f/g/refs"));
    const found = findRepositories([root], 100, cached);
    expect(found.gitDirectories.sort()).toEqual(
      [path.join(root, "a/b/moved/y/.git"), path.join(root, "e/f/g")].sort(),
    );
  });

  it("stops at the folder limit and says so, cached or not", () => {
    const root = tree();
    const cached = { listings: new FolderListings(), since: FUTURE };
    expect(findRepositories([root], 3, cached).stoppedAt).toBe(3);
    expect(findRepositories([root], 3, cached).stoppedAt).toBe(3);
    expect(findRepositories([root], 100, cached).stoppedAt).toBeUndefined();
  });
});
