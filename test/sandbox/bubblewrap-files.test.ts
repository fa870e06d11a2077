import {
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  symlinkSync,
} from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { useSandboxRun } from "./sandbox-run.js";
import { sandboxUsers } from "./sandbox-users.js";

for (const user of sandboxUsers()) {
  const title = `bubblewrap sandbox ${user.title}${user.unavailable === undefined ? "" : ` (skipped: ${user.unavailable})`}`;
  if (user.unavailable !== undefined) console.warn(`Skipping: ${title}`);

  describe.skipIf(user.unavailable !== undefined)(title, () => {
    const sandboxed = useSandboxRun(user);

    it("writes inside the project, and writes to home, /etc and another /tmp path leave the machine unchanged", async () => {
      const { world, bash } = sandboxed();
      const outsideFile = path.join(world.outside, "written.txt");
      const result = await bash(
        `echo inside > inside.txt; echo home > "$HOME/written.txt"; echo etc > /etc/panto-sandbox-test; echo tmp > ${outsideFile}; cat inside.txt`,
      );
      expect(result.text).toContain("inside\n");
      expect(readFileSync(path.join(world.project, "inside.txt"), "utf8")).toBe("inside\n");
      expect(existsSync(path.join(world.home, "written.txt"))).toBe(false);
      expect(existsSync("/etc/panto-sandbox-test")).toBe(false);
      expect(existsSync(outsideFile)).toBe(false);
      expect(result.text).toMatch(/\/etc\/panto-sandbox-test: (Read-only file system|Permission denied)/);
    });

    it("in read-only mode writes nothing but the private temporary folder", async () => {
      const { world, sandbox, bash } = sandboxed({ mode: "read-only" });
      const result = await bash(
        "echo x > inside.txt; echo scratch > /tmp/scratch.txt && cat /tmp/scratch.txt",
      );
      expect(result.text).toContain("inside.txt: Read-only file system");
      expect(existsSync(path.join(world.project, "inside.txt"))).toBe(false);
      expect(readFileSync(path.join(sandbox.policy.tmp.host, "scratch.txt"), "utf8")).toBe("scratch\n");
    });

    it("keeps .git/config and .git/hooks read-only and .git in place", async () => {
      const { world, bash } = sandboxed();
      const config = path.join(world.project, ".git", "config");
      const before = readFileSync(config, "utf8");
      const result = await bash(
        "echo '[core] fsmonitor = evil' >> .git/config; echo evil > .git/hooks/pre-commit; mv .git .git-moved; git status --short >/dev/null && echo git-works",
      );
      expect(readFileSync(config, "utf8")).toBe(before);
      expect(existsSync(path.join(world.project, ".git", "hooks", "pre-commit"))).toBe(false);
      expect(existsSync(path.join(world.project, ".git-moved"))).toBe(false);
      expect(result.text).toContain(".git/config: Read-only file system");
    });

    it("keeps .git/hooks protected through a symlink swapped in before the command, and puts the symlink back", async () => {
      const { world, bash } = sandboxed();
      const hooks = path.join(world.project, ".git", "hooks");
      renameSync(hooks, path.join(world.project, ".git", "hooks-original"));
      mkdirSync(path.join(world.project, "hook-scripts"));
      symlinkSync("../hook-scripts", hooks);
      const first = await bash("echo evil > .git/hooks/pre-commit; echo evil > hook-scripts/pre-commit");
      expect(first.text).toContain("Read-only file system");
      expect(existsSync(path.join(world.project, "hook-scripts", "pre-commit"))).toBe(false);
      const second = await bash(
        "rm .git/hooks && mkdir .git/hooks && echo evil > .git/hooks/pre-commit && echo replaced",
      );
      expect(second.isError).toBe(true);
      expect(second.text).toContain("Refused by the sandbox, rule protected-path");
      expect(lstatSync(hooks).isSymbolicLink()).toBe(true);
      expect(readlinkSync(hooks)).toBe("../hook-scripts");
      expect(existsSync(path.join(world.project, "hook-scripts", "pre-commit"))).toBe(false);
    });

    it("moves aside a .panto or .mcp.json the command created, so no config of its making is ever read", async () => {
      const { world, bash } = sandboxed();
      const result = await bash(
        `mkdir .panto && echo '{"hooks":{}}' > .panto/config.json; echo '{}' > .mcp.json`,
      );
      expect(result.isError).toBe(true);
      expect(result.text).toMatch(
        /\.panto is protected inside a writable folder and may not be changed: what the command made there is moved to/,
      );
      expect(existsSync(path.join(world.project, ".panto"))).toBe(false);
      expect(existsSync(path.join(world.project, ".mcp.json"))).toBe(false);
    });

    it("hides credential files and folders, even inside a writable home", async () => {
      const { world, bash } = sandboxed({ writableRoots: ["~"] });
      const result = await bash(
        'cat ~/.ssh/id_ed25519; ls ~/.ssh; cat ~/.aws/credentials; cat ~/.netrc; cat "$PANTO_HOME/config.json"; test -d ~/.ssh && echo ssh-is-a-folder; echo note > ~/notes.txt',
      );
      expect(result.text).not.toMatch(/PRIVATE KEY|aws_secret_access_key|hunter2/);
      expect(result.text).toContain("ssh-is-a-folder");
      expect(result.text).toMatch(/\.ssh\/id_ed25519: (Permission denied|No such file or directory)/);
      expect(result.text).toMatch(/\.netrc: Permission denied/);
      expect(readFileSync(path.join(world.home, "notes.txt"), "utf8")).toBe("note\n");
    });

    it("hides credentials in a home it cannot see at all", async () => {
      const { bash } = sandboxed();
      const result = await bash("cat ~/.ssh/id_ed25519 ~/.netrc");
      expect(result.isError).toBe(true);
      expect(result.text).not.toMatch(/PRIVATE KEY|hunter2/);
    });
  });
}
