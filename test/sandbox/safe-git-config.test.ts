import { describe, expect, it } from "vitest";
import { isSafeGitConfig } from "../../src/sandbox/safe-git-config.js";

describe("isSafeGitConfig", () => {
  it("keeps what git init and git clone write", () => {
    const cloned = [
      "[core]",
      "\trepositoryformatversion = 0",
      "\tfilemode = true",
      "\tbare = false",
      "\tlogallrefupdates = true",
      '[remote "origin"]',
      "\turl = https://example.com/x.git",
      "\tfetch = +refs/heads/*:refs/remotes/origin/*",
      '[branch "main"]',
      "\tremote = origin",
      "\tmerge = refs/heads/main",
      "",
    ].join("\n");
    expect(isSafeGitConfig(cloned)).toBe(true);
  });

  it("refuses every key that names a program, and what it cannot read plainly", () => {
    for (const text of [
      "[core]\n\tfsmonitor = ./evil.sh\n",
      "[core]\n\thooksPath = hooks2\n",
      "[core]\n\tsshCommand = evil\n",
      "[alias]\n\tst = !evil\n",
      '[filter "x"]\n\tclean = evil\n',
      "[include]\n\tpath = ../evil.config\n",
      '[includeIf "gitdir:/"]\n\tpath = ../evil.config\n',
      '[remote "o"]\n\tuploadpack = evil\n',
      "[core] fsmonitor = evil\n",
      "[core]\n\trepositoryformatversion = 0 \\\n",
      '[core "x"]\n\tbare = false\n',
      "[remote]\n\turl = x\n",
      "bare = false\n",
    ]) {
      expect(isSafeGitConfig(text), text).toBe(false);
    }
  });
});
