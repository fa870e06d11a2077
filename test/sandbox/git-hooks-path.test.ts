import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { hooksFolderReason, hooksPathsFor, userGitConfigs } from "../../src/sandbox/git-hooks-path.js";
import { useTempDir } from "../support/use-temp-dir.js";

describe("the hooks folders git configs name (core.hooksPath)", () => {
  const temp = useTempDir("panto-hooks-path-", { resolveLinks: true });

  function repository(config: string): { root: string; gitDirectory: string; home: string } {
    const root = path.join(temp(), "project");
    const gitDirectory = path.join(root, ".git");
    mkdirSync(gitDirectory, { recursive: true });
    writeFileSync(path.join(gitDirectory, "config"), config);
    const home = path.join(temp(), "home");
    mkdirSync(home, { recursive: true });
    return { root, gitDirectory, home };
  }

  it("resolves the repository's own, relative to the work tree (husky's .husky)", () => {
    const { root, gitDirectory, home } = repository(
      '[core]\n\tbare = false\n\thooksPath = ".husky" # husky\n',
    );
    expect(hooksPathsFor({ gitDirectory, worktree: root, userConfigs: [], home })).toEqual([
      path.join(root, ".husky"),
    ]);
  });

  it("takes every value from the user's configs, includes (any condition) and config.worktree, ~ expanded", () => {
    const { root, gitDirectory, home } = repository(
      '[includeIf "gitdir:~/x/"]\n\tpath = ../extra.gitconfig\n',
    );
    writeFileSync(path.join(root, "extra.gitconfig"), "[CORE]\n\tHooksPath = tools/hooks\n");
    writeFileSync(path.join(gitDirectory, "config.worktree"), "[core] hookspath = ~/hooks\n");
    const global = path.join(home, ".gitconfig");
    writeFileSync(global, "[include]\n\tpath = ~/more.gitconfig\n[core]\n\thooksPath = .githooks\n");
    writeFileSync(path.join(home, "more.gitconfig"), "[core]\n\thooksPath = /abs/hooks\n");
    const found = hooksPathsFor({ gitDirectory, worktree: root, userConfigs: [global], home });
    expect(found.sort()).toEqual(
      [
        "/abs/hooks",
        path.join(root, ".githooks"),
        path.join(root, "tools/hooks"),
        path.join(home, "hooks"),
      ].sort(),
    );
  });

  it("finds none in configs that set other keys, or in a config that is not a regular file", () => {
    const { root, gitDirectory, home } = repository("[core]\n\tfilemode = true\n[hooks]\n\tpath = x\n");
    expect(
      hooksPathsFor({ gitDirectory, worktree: root, userConfigs: ["/dev/zero", "/missing"], home }),
    ).toEqual([]);
  });

  it("names a hook a write would plant in a nested repository's hooks folder, and nothing else there", () => {
    const { root, home } = repository("");
    const nested = path.join(root, "vendor/lib");
    mkdirSync(path.join(nested, ".git"), { recursive: true });
    const global = path.join(home, ".gitconfig");
    writeFileSync(global, "[core]\n\thooksPath = .githooks\n");
    const userGit = { userConfigs: [global], home };
    expect(hooksFolderReason(path.join(nested, ".githooks/pre-commit"), root, userGit)).toContain(
      "core.hooksPath",
    );
    expect(hooksFolderReason(path.join(nested, ".githooks/README.md"), root, userGit)).toBeUndefined();
    expect(hooksFolderReason(path.join(nested, "src/pre-commit"), root, userGit)).toBeUndefined();
    expect(
      hooksFolderReason(path.join(nested, ".githooks/pre-commit"), root, { userConfigs: [], home }),
    ).toBe(undefined);
  });

  it("reads the user's configs where git does", () => {
    expect(userGitConfigs({}, "/h")).toEqual(["/etc/gitconfig", "/h/.config/git/config", "/h/.gitconfig"]);
    expect(userGitConfigs({ GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/g" }, "/h")).toEqual(["/g"]);
    expect(userGitConfigs({ GIT_CONFIG_SYSTEM: "/s", XDG_CONFIG_HOME: "/x" }, "/h")).toEqual([
      "/s",
      "/x/git/config",
      "/h/.gitconfig",
    ]);
  });
});
