import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { findProjectRoot } from "../../src/config/index.js";
import { useTempDir } from "./temp-dir.js";

describe("findProjectRoot", () => {
  const dir = useTempDir();

  it("finds the nearest ancestor holding .git", async () => {
    await mkdir(path.join(dir(), "repo", ".git"), { recursive: true });
    await mkdir(path.join(dir(), "repo", "src", "lib"), { recursive: true });
    expect(findProjectRoot(path.join(dir(), "repo", "src", "lib"))).toBe(path.join(dir(), "repo"));
    expect(findProjectRoot(path.join(dir(), "repo"))).toBe(path.join(dir(), "repo"));
  });

  it("accepts a .git file (worktrees, submodules)", async () => {
    await mkdir(path.join(dir(), "wt", "sub"), { recursive: true });
    await writeFile(path.join(dir(), "wt", ".git"), "gitdir: /elsewhere\n");
    expect(findProjectRoot(path.join(dir(), "wt", "sub"))).toBe(path.join(dir(), "wt"));
  });

  it("stops at a nested .panto before an outer .git", async () => {
    await mkdir(path.join(dir(), "mono", ".git"), { recursive: true });
    await mkdir(path.join(dir(), "mono", "packages", "app", ".panto"), { recursive: true });
    await mkdir(path.join(dir(), "mono", "packages", "app", "src"), { recursive: true });
    expect(findProjectRoot(path.join(dir(), "mono", "packages", "app", "src"))).toBe(
      path.join(dir(), "mono", "packages", "app"),
    );
    expect(findProjectRoot(path.join(dir(), "mono", "packages"))).toBe(path.join(dir(), "mono"));
  });

  it("ignores a .panto that is a file, not a directory", async () => {
    await mkdir(path.join(dir(), "repo", ".git"), { recursive: true });
    await mkdir(path.join(dir(), "repo", "a"), { recursive: true });
    await writeFile(path.join(dir(), "repo", "a", ".panto"), "");
    expect(findProjectRoot(path.join(dir(), "repo", "a"))).toBe(path.join(dir(), "repo"));
  });

  it("falls back to the working directory when no marker exists", async () => {
    await mkdir(path.join(dir(), "plain", "dir"), { recursive: true });
    expect(findProjectRoot(path.join(dir(), "plain", "dir"))).toBe(path.join(dir(), "plain", "dir"));
  });

  it("does not treat the user-level PANTO_HOME directory as a project marker", async () => {
    await mkdir(path.join(dir(), "user", ".panto"), { recursive: true });
    await mkdir(path.join(dir(), "user", "notes"), { recursive: true });
    const cwd = path.join(dir(), "user", "notes");
    expect(findProjectRoot(cwd)).toBe(path.join(dir(), "user"));
    expect(findProjectRoot(cwd, { pantoHome: path.join(dir(), "user", ".panto") })).toBe(cwd);
  });
});
