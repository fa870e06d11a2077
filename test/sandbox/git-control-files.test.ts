import { spawnSync } from "node:child_process";
import { appendFileSync, chmodSync, existsSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createWriteTool, type ToolOutput } from "../../src/tools/index.js";
import { put } from "./sandbox-fixture.js";
import { type SandboxRun, useSandboxRun } from "./sandbox-run.js";
import { sandboxUsers } from "./sandbox-users.js";

/**
 * A script outside the project that leaves a marker when run: what every planted git file below
 * names. The marker must never appear: the user's git ran nothing the model chose.
 */
function evilScript(run: SandboxRun): { script: string; marker: string } {
  const marker = path.join(run.world.base, "git-ran-the-model's-command");
  const script = path.join(run.world.outside, "evil.sh");
  writeFileSync(script, `#!/bin/sh\ntouch '${marker}'\n`);
  chmodSync(script, 0o755);
  return { script, marker };
}

/**
 * The user's git, outside the sandbox, with no system config of this machine and as global config
 * the world's ~/.gitconfig when a test wrote one (else none).
 */
function hostGit(cwd: string, run: SandboxRun, ...args: string[]): void {
  const global = path.join(run.world.home, ".gitconfig");
  spawnSync("git", ["-c", "user.name=u", "-c", "user.email=u@example.com", ...args], {
    cwd,
    env: {
      PATH: process.env.PATH,
      HOME: run.world.home,
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_CONFIG_GLOBAL: existsSync(global) ? global : "/dev/null",
    },
    encoding: "utf8",
  });
}

/**
 * Runs what a user does in each folder: git status, then a commit (hooks), and the plant's own
 * (`git rebase --continue`), and says whether anything ran.
 */
function userGitRan(
  run: SandboxRun,
  marker: string,
  folders: readonly string[],
  more: readonly (readonly string[])[] = [],
): boolean {
  for (const folder of folders) {
    const at = path.join(run.world.project, folder);
    if (!existsSync(at)) continue;
    hostGit(at, run, "status");
    for (const args of more) hostGit(at, run, ...args);
    hostGit(at, run, "commit", "--allow-empty", "-q", "-m", "x");
  }
  return existsSync(marker);
}

/** git commit as the model, inside the sandbox. */
const COMMIT = "git -c user.name=m -c user.email=m@example.com commit -q";
/** A commit in the repository at `repo` (a rebase needs one). */
const commitIn = (repo: string): string =>
  `${COMMIT.replace("git ", `git -C ./${repo} `)} --allow-empty -m m`;

/** Each way to plant a git file that makes the user's git run a command, in a repository at `repo` ("" is the project's own). */
const PLANTS: readonly {
  file: string;
  command: (repo: string, evil: string, privateTmp: string) => string;
  folders: (repo: string) => string[];
  /** What the user runs there besides git status and commit. */
  user?: readonly (readonly string[])[];
}[] = [
  {
    file: "config",
    command: (repo, evil) => `git -C ./${repo} config core.fsmonitor ${evil}`,
    folders: (repo) => [repo],
  },
  {
    file: "config.worktree",
    command: (repo, evil) =>
      `printf '[core]\\n\\tfsmonitor = ${evil}\\n' > ./${repo}/.git/config.worktree; ` +
      `git -C ./${repo} config core.repositoryformatversion 1; git -C ./${repo} config extensions.worktreeConfig true`,
    folders: (repo) => [repo],
  },
  {
    file: "commondir",
    command: (repo, evil) =>
      `git init -q --bare evil-common && git -C evil-common config core.fsmonitor ${evil} && echo "$PWD/evil-common" > ./${repo}/.git/commondir`,
    folders: (repo) => [repo],
  },
  {
    file: "hooks/pre-commit",
    command: (repo, evil) =>
      `mkdir -p ./${repo}/.git/hooks; printf '#!/bin/sh\\n${evil}\\n' > ./${repo}/.git/hooks/pre-commit; chmod +x ./${repo}/.git/hooks/pre-commit`,
    folders: (repo) => [repo],
  },
  {
    file: "modules/sub (a submodule's git directory)",
    command: (repo, evil) =>
      `git init -q --bare ./${repo}/.git/modules/sub && git -C ./${repo}/.git/modules/sub config core.fsmonitor ${evil}; ` +
      `mkdir -p ./${repo}/sub && echo "gitdir: ../.git/modules/sub" > ./${repo}/sub/.git`,
    folders: (repo) => [path.join(repo, "sub")],
  },
  {
    file: "info/attributes",
    command: (repo, evil) =>
      `mkdir -p ./${repo}/.git/info; echo '* filter=evil diff=evil' > ./${repo}/.git/info/attributes; ` +
      `git -C ./${repo} config filter.evil.clean ${evil}; git -C ./${repo} config diff.evil.textconv ${evil}`,
    folders: (repo) => [repo],
  },
  {
    file: "worktrees/w/commondir",
    command: (repo, evil) =>
      `git init -q --bare evil-common && git -C evil-common config core.fsmonitor ${evil}; ` +
      `mkdir -p ./${repo}/.git/worktrees/w ./${repo}/w && echo 'ref: refs/heads/main' > ./${repo}/.git/worktrees/w/HEAD; ` +
      `echo "$PWD/evil-common" > ./${repo}/.git/worktrees/w/commondir; echo "gitdir: $PWD/${repo}/.git/worktrees/w" > ./${repo}/w/.git`,
    folders: (repo) => [path.join(repo, "w")],
  },
  {
    file: "rebase-merge/git-rebase-todo (an exec line left for git rebase --continue)",
    command: (repo, evil) =>
      `${commitIn(repo)} && cd ./${repo} && GIT_SEQUENCE_EDITOR='printf "break\\nexec ${evil}\\n" >' git rebase -q -i HEAD; ls .git/rebase-merge/git-rebase-todo`,
    folders: (repo) => [repo],
    user: [["rebase", "--continue"]],
  },
  {
    // The program fails in the sandbox (the script it runs is out of sight), which stops the cherry-pick.
    file: "sequencer/opts (a merge program in the project, git-merge-../evil, for the next pick)",
    command: (repo, evil) =>
      `${commitIn(repo)} && cd ./${repo} && mkdir -p git-merge-.. && printf '#!/bin/sh\\nexec ${evil}\\n' > git-merge-../evil && chmod +x git-merge-../evil && ` +
      `git checkout -q -b side && echo 1 > f && git add f && ${COMMIT} -m a && echo 1 > g && git add g && ` +
      `${COMMIT} -m b && git checkout -q - && git -c user.name=m -c user.email=m@example.com cherry-pick --strategy=../evil side~1 side; ls .git/sequencer/opts`,
    folders: (repo) => [repo],
    user: [["cherry-pick", "--skip"]],
  },
  {
    file: ".git pointer file to a repository in the private /tmp",
    command: (repo, evil, privateTmp) =>
      `git init -q --bare /tmp/evil && git -C /tmp/evil config core.fsmonitor ${evil}; ` +
      `mkdir -p ./${repo}/x && echo "gitdir: ${privateTmp}/evil" > ./${repo}/x/.git`,
    folders: (repo) => [path.join(repo, "x")],
  },
  {
    file: ".git symlink to a bare repository in the project",
    command: (repo, evil) =>
      `git init -q --bare evil-bare && git -C evil-bare config core.fsmonitor ${evil}; ` +
      `mkdir -p ./${repo}/y && ln -s "$PWD/evil-bare" ./${repo}/y/.git`,
    folders: (repo) => [path.join(repo, "y"), "evil-bare"],
  },
];

for (const user of sandboxUsers()) {
  const title = `git's control files under bubblewrap ${user.title}${user.unavailable === undefined ? "" : ` (skipped: ${user.unavailable})`}`;
  if (user.unavailable !== undefined) console.warn(`Skipping: ${title}`);

  describe.skipIf(user.unavailable !== undefined)(title, () => {
    const sandboxed = useSandboxRun(user);

    for (const plant of PLANTS) {
      for (const where of ["the project", "a repository the command makes (vendor/lib)"] as const) {
        it(`planting ${plant.file} in ${where} by bash leaves the user's git running nothing`, async () => {
          const run = sandboxed();
          const { script, marker } = evilScript(run);
          const repo = where === "the project" ? "." : "vendor/lib";
          const setup = repo === "." ? "" : "git init -q vendor/lib && ";
          const result = await run.bash(
            `${setup}${plant.command(repo, script, run.sandbox.policy.tmp.host)}`,
          );
          // Refused as it happened (a read-only mount), or put aside after the command.
          expect(result.text).toMatch(
            /Refused by the sandbox, rule protected-path|Read-only file system|Device or resource busy/,
          );
          expect(userGitRan(run, marker, plant.folders(repo), plant.user)).toBe(false);
        });
      }
    }

    it("keeps what git init and git clone write in a new repository, and hook samples", async () => {
      const run = sandboxed();
      const result = await run.bash(
        "git init -q vendor/lib && git -C vendor/lib remote add origin https://example.com/x.git && git clone -q vendor/lib vendor/copy 2>&1; echo done",
      );
      expect(result.text).not.toContain("Refused by the sandbox");
      expect(existsSync(path.join(run.world.project, "vendor/lib/.git/config"))).toBe(true);
      expect(existsSync(path.join(run.world.project, "vendor/copy/.git/config"))).toBe(true);
      expect(readdirSync(path.join(run.world.project, "vendor/lib/.git/hooks")).length).toBeGreaterThan(0);
    });

    it("keeps a rebase stopped on a break, whose todo names no program, and the next command continues it", async () => {
      const run = sandboxed();
      const result = await run.bash(
        `${commitIn(".")} && ${commitIn(".")} && GIT_SEQUENCE_EDITOR='sed -i "1i break"' git rebase -q -i --no-ff HEAD~1; echo done`,
      );
      expect(result.text).not.toContain("Refused by the sandbox");
      expect(existsSync(path.join(run.world.project, ".git/rebase-merge/git-rebase-todo")), result.text).toBe(
        true,
      );
      expect((await run.bash("git rebase --continue && echo continued")).text).toContain("continued");
    });

    it("holds the hooks folder the repository's config names (husky's .husky): bash and write plant nothing there", async () => {
      const run = sandboxed();
      const { script, marker } = evilScript(run);
      // Written as git would (the user's git refuses a project another user owns).
      appendFileSync(path.join(run.world.project, ".git/config"), "[core]\n\thooksPath = .husky\n");
      // Older than the check's margin, so the user's change is not taken for the command's.
      await new Promise((resolve) => setTimeout(resolve, 2100));
      const hook = `#!/bin/sh\nexec ${script}\n`;
      const result = await run.bash(
        `mkdir -p .husky && printf '${hook}' > .husky/pre-commit && chmod +x .husky/pre-commit`,
      );
      expect(result.text).toMatch(/Refused by the sandbox, rule protected-path|Read-only file system/);
      const write = await createWriteTool().execute(
        { path: ".husky/pre-commit", content: hook },
        { cwd: run.world.project, sandbox: run.sandbox },
      );
      expect(textOf(write)).toContain("rule protected-path");
      expect(userGitRan(run, marker, ["."])).toBe(false);
    });

    it("holds a relative hooks folder the user's global config names, in the project and in nested repositories", async () => {
      const run = sandboxed();
      writeFileSync(path.join(run.world.home, ".gitconfig"), "[core]\n\thooksPath = .githooks\n");
      const { script, marker } = evilScript(run);
      const hook = `#!/bin/sh\nexec ${script}\n`;
      const plant = (folder: string) =>
        `mkdir -p ${folder}/.githooks && printf '${hook}' > ${folder}/.githooks/pre-commit && chmod +x ${folder}/.githooks/pre-commit`;
      const result = await run.bash(`git init -q vendor/lib; ${plant("vendor/lib")}; ${plant(".")}`);
      expect(result.text).toContain("Refused by the sandbox, rule protected-path");
      expect(existsSync(path.join(run.world.project, "vendor/lib/.githooks/pre-commit"))).toBe(false);
      const write = await createWriteTool().execute(
        { path: "vendor/lib/.githooks/post-commit", content: hook },
        { cwd: run.world.project, sandbox: run.sandbox },
      );
      expect(textOf(write)).toContain("rule protected-path");
      expect(userGitRan(run, marker, [".", "vendor/lib"])).toBe(false);
    });

    it("reports a .gitmodules the command changed, and leaves it", async () => {
      const run = sandboxed();
      const result = await run.bash(
        `printf '[submodule "x"]\\n\\tpath = x\\n\\turl = ../x\\n' > .gitmodules`,
      );
      expect(result.text).toMatch(/Note: .*\.gitmodules was changed by the command/);
      expect(existsSync(path.join(run.world.project, ".gitmodules"))).toBe(true);
    });

    it("leaves a repository's control files alone when the command did not change them", async () => {
      const run = sandboxed();
      put(path.join(run.world.project, "vendor/lib/.git/hooks/pre-commit"), "#!/bin/sh\n");
      hostGit(path.join(run.world.project, "vendor/lib"), run, "init", "-q");
      hostGit(path.join(run.world.project, "vendor/lib"), run, "config", "alias.st", "status");
      await new Promise((resolve) => setTimeout(resolve, 2100));
      const result = await run.bash("echo hi > vendor/lib/file.txt");
      expect(result.text).not.toContain("Refused");
      expect(existsSync(path.join(run.world.project, "vendor/lib/.git/hooks/pre-commit"))).toBe(true);
      expect(existsSync(path.join(run.world.project, "vendor/lib/.git/config"))).toBe(true);
    });

    it("refuses the write tool every git control file, in the project and in a nested repository", async () => {
      const run = sandboxed();
      const { script, marker } = evilScript(run);
      hostGit(run.world.project, run, "init", "-q", "vendor/lib");
      const write = createWriteTool();
      const fsmonitor = `[core]\n\tfsmonitor = ${script}\n`;
      const targets = [
        [".git/config", fsmonitor],
        [".git/commondir", "../evil\n"],
        [".git/config.worktree", fsmonitor],
        [".git/info/attributes", "* filter=evil\n"],
        [".git/hooks/pre-commit", `#!/bin/sh\n${script}\n`],
        [".git/modules/sub/config", fsmonitor],
        [".git/worktrees/w/commondir", "../evil\n"],
        ["vendor/lib/.git/config", fsmonitor],
        ["vendor/lib/.git/commondir", "../evil\n"],
        ["vendor/lib/.git/hooks/post-checkout", `#!/bin/sh\n${script}\n`],
        [".git/rebase-merge/git-rebase-todo", `exec ${script}\n`],
        ["vendor/lib/.git/sequencer/opts", "[options]\n\tstrategy = ../evil\n"],
        ["vendor/lib/.git/rebase-apply/strategy", "../evil\n"],
        ["x/.git", "gitdir: ../evil\n"],
      ] as const;
      for (const [file, content] of targets) {
        const output = await write.execute(
          { path: file, content },
          { cwd: run.world.project, sandbox: run.sandbox },
        );
        expect(output.isError, file).toBe(true);
        expect(textOf(output), file).toContain("rule protected-path");
      }
      expect(existsSync(path.join(run.world.project, "x/.git"))).toBe(false);
      expect(existsSync(path.join(run.world.project, ".git/commondir"))).toBe(false);
      expect(userGitRan(run, marker, [".", "vendor/lib"])).toBe(false);
    });
  });
}

function textOf(output: ToolOutput): string {
  return output.content.map((block) => (block.type === "text" ? block.text : "")).join("");
}
