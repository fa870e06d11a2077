import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readlinkSync, rmSync, symlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type PathRule,
  type PathRuleKind,
  resolveSandboxSettings,
  restoreWatched,
  ruleFor,
  SandboxError,
  sandboxLayout,
} from "../../src/sandbox/index.js";
import { useTempDir } from "../support/use-temp-dir.js";
import { link, makeWorld, put, worldPolicy } from "./sandbox-fixture.js";

const temp = useTempDir("panto-sandbox-layout-", { resolveLinks: true });

function rulesAt(rules: readonly PathRule[], absolute: string): PathRuleKind[] {
  return rules.filter((rule) => rule.path === absolute).map((rule) => rule.kind);
}

describe("sandbox settings", () => {
  it("default to workspace-write with the network off, no question for commands, 4,096 processes and half the memory", () => {
    expect(resolveSandboxSettings(undefined, undefined)).toEqual({
      mode: "workspace-write",
      network: false,
      writableRoots: [],
      hiddenPaths: [],
      askCommands: false,
      maxProcesses: 4096,
      maxMemoryMb: Math.floor(os.totalmem() / 2 / 1024 / 1024),
    });
  });

  it("read a bare mode string as the mode, and let --sandbox win over config", () => {
    expect(resolveSandboxSettings("read-only", undefined).mode).toBe("read-only");
    const config = {
      mode: "read-only" as const,
      network: true,
      writable_roots: ["~/scratch"],
      ask_commands: true,
      max_processes: 64,
      max_memory_mb: 512,
    };
    expect(resolveSandboxSettings(config, "full")).toEqual({
      mode: "full",
      network: true,
      writableRoots: ["~/scratch"],
      hiddenPaths: [],
      askCommands: true,
      maxProcesses: 64,
      maxMemoryMb: 512,
    });
  });
});

describe("sandbox policy", () => {
  it("makes the project writable in workspace-write only, with extra roots from ~ and the project", () => {
    const world = makeWorld(temp());
    mkdirSync(path.join(world.home, "scratch"));
    mkdirSync(path.join(world.project, "build"));
    const writable = worldPolicy(world, { writableRoots: ["~/scratch", "build"] });
    expect(writable.writableRoots).toEqual([
      world.project,
      path.join(world.home, "scratch"),
      path.join(world.project, "build"),
    ]);
    expect(worldPolicy(world, { mode: "read-only" }).writableRoots).toEqual([]);
  });

  it("refuses a writable root that does not exist, naming the key and the path", () => {
    const world = makeWorld(temp());
    expect(() => worldPolicy(world, { writableRoots: ["~/nowhere"] })).toThrow(SandboxError);
    expect(() => worldPolicy(world, { writableRoots: ["~/nowhere"] })).toThrow(
      /sandbox\.writable_roots.*~\/nowhere.*ENOENT/,
    );
  });

  it("hides the credential folders, panto's home and the configured extras", () => {
    const world = makeWorld(temp());
    const policy = worldPolicy(world, { hiddenPaths: ["~/.config/secret-tool"] });
    for (const hidden of [
      ".ssh",
      ".aws",
      ".gnupg",
      ".kube",
      ".docker",
      ".netrc",
      ".config/gh",
      ".config/secret-tool",
    ]) {
      expect(policy.hiddenPaths).toContain(path.join(world.home, hidden));
    }
    expect(policy.hiddenPaths).toContain(world.pantoHome);
  });
});

describe("sandbox layout", () => {
  it("pins a .git directory and protects its config, hooks and the missing modules folder", () => {
    const world = makeWorld(temp());
    const layout = sandboxLayout(worldPolicy(world));
    const git = path.join(world.project, ".git");
    expect(rulesAt(layout.rules, git)).toEqual(["writable"]);
    expect(ruleFor(layout.rules, path.join(git, "config"))).toMatchObject({
      kind: "protected",
      present: "file",
    });
    expect(ruleFor(layout.rules, path.join(git, "hooks", "pre-commit")).kind).toBe("protected");
    expect(ruleFor(layout.rules, path.join(git, "objects", "ab")).kind).toBe("writable");
    expect(layout.watched.map((watched) => watched.path)).toEqual(
      expect.arrayContaining([path.join(git, "modules"), path.join(world.project, ".panto")]),
    );
  });

  it("protects a missing .panto, .mcp.json and .git at the top of a writable folder, and watches them", () => {
    const world = makeWorld(temp());
    rmSync(path.join(world.project, ".git"), { recursive: true });
    const layout = sandboxLayout(worldPolicy(world));
    for (const name of [".panto", ".mcp.json", ".git"]) {
      const absolute = path.join(world.project, name);
      expect(ruleFor(layout.rules, path.join(absolute, "x"))).toMatchObject({ kind: "protected" });
      expect(layout.watched).toContainEqual(
        expect.objectContaining({ path: absolute, before: { kind: "missing" } }),
      );
    }
  });

  it("follows a worktree's .git pointer file to its git directory and the common one, both writable but protected", () => {
    const world = makeWorld(temp());
    execFileSync("git", [
      "-C",
      world.project,
      "-c",
      "user.name=t",
      "-c",
      "user.email=t@t",
      "commit",
      "-q",
      "--allow-empty",
      "-m",
      "x",
    ]);
    const worktree = path.join(world.base, "worktree");
    execFileSync("git", ["-C", world.project, "worktree", "add", "-q", worktree]);
    const policy = worldPolicy(world, { writableRoots: [worktree] });
    const layout = sandboxLayout(policy);
    const gitDirectory = path.join(world.project, ".git", "worktrees", "worktree");
    expect(ruleFor(layout.rules, path.join(worktree, ".git"))).toMatchObject({
      kind: "protected",
      present: "file",
    });
    expect(ruleFor(layout.rules, path.join(gitDirectory, "index")).kind).toBe("writable");
    expect(rulesAt(layout.rules, gitDirectory)).toContain("writable");
    expect(ruleFor(layout.rules, path.join(world.project, ".git", "config")).kind).toBe("protected");
    expect(ruleFor(layout.rules, path.join(gitDirectory, "config.worktree")).kind).toBe("protected");
  });

  it("protects a symlinked .panto both as the link and where it leads, and watches the link", () => {
    const world = makeWorld(temp());
    const real = path.join(world.project, "settings");
    put(path.join(real, "config.json"), "{}");
    symlinkSync("settings", path.join(world.project, ".panto"));
    const layout = sandboxLayout(worldPolicy(world));
    expect(ruleFor(layout.rules, path.join(real, "config.json")).kind).toBe("protected");
    expect(layout.watched).toContainEqual(
      expect.objectContaining({
        path: path.join(world.project, ".panto"),
        before: { kind: "symlink", target: "settings" },
      }),
    );
  });

  it("hides credential folders and files, and where a symlinked one leads", () => {
    const world = makeWorld(temp());
    const vault = path.join(world.base, "vault");
    put(path.join(vault, "token"), "t");
    link(vault, path.join(world.home, ".kube"));
    const layout = sandboxLayout(worldPolicy(world));
    expect(ruleFor(layout.rules, path.join(world.home, ".ssh", "id_ed25519"))).toMatchObject({
      kind: "hidden",
    });
    expect(ruleFor(layout.rules, path.join(world.home, ".netrc"))).toMatchObject({
      kind: "hidden",
      present: "file",
    });
    expect(ruleFor(layout.rules, path.join(vault, "token"))).toMatchObject({
      kind: "hidden",
      present: "directory",
    });
    expect(ruleFor(layout.rules, world.pantoHome).kind).toBe("hidden");
  });

  it("keeps a credential hidden inside a writable folder, and watches a missing one there", () => {
    const world = makeWorld(temp());
    const policy = worldPolicy(world, { writableRoots: ["~"] });
    const layout = sandboxLayout(policy);
    expect(ruleFor(layout.rules, path.join(world.home, "notes.txt")).kind).toBe("writable");
    expect(ruleFor(layout.rules, path.join(world.home, ".ssh", "id_ed25519")).kind).toBe("hidden");
    expect(layout.watched).toContainEqual(
      expect.objectContaining({ path: path.join(world.home, ".gnupg"), before: { kind: "missing" } }),
    );
  });

  it("conceals the machine's temporary folder but keeps the private one writable", () => {
    const world = makeWorld(temp());
    const layout = sandboxLayout(worldPolicy(world));
    expect(ruleFor(layout.rules, path.join(world.hostTmp, "tmux-0", "default")).kind).toBe("concealed");
    expect(ruleFor(layout.rules, path.join(world.hostTmp, "private", "tmp", "x")).kind).toBe("private-tmp");
    expect(ruleFor(layout.rules, "/run/docker.sock").kind).toBe("concealed");
    expect(ruleFor(layout.rules, "/etc/passwd").kind).toBe("read-only");
  });
});

describe("ruleFor", () => {
  const segment = fc.constantFrom("a", "b", "c");
  const absolute = fc.array(segment, { maxLength: 4 }).map((parts) => `/${parts.join("/")}`);
  const kind = fc.constantFrom<PathRuleKind>("read-only", "concealed", "writable", "protected", "hidden");
  const depth = (at: string) => (at === "/" ? 0 : at.split("/").length - 1);

  it("answers with the deepest rule whose path holds the path (the later one on equal paths)", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(absolute, kind), { maxLength: 8 }), absolute, (extra, probe) => {
        const rules: PathRule[] = [
          { path: "/", kind: "read-only", present: "directory", reason: "root" },
          ...extra
            .map(([at, ruleKind]) => ({
              path: path.resolve(at),
              kind: ruleKind,
              present: undefined,
              reason: "r",
            }))
            .sort((a, b) => depth(a.path) - depth(b.path)),
        ];
        const found = ruleFor(rules, probe);
        const holding = rules.filter(
          (rule) => rule.path === "/" || probe === rule.path || probe.startsWith(`${rule.path}/`),
        );
        const deepest = Math.max(...holding.map((rule) => depth(rule.path)));
        const last = holding.filter((rule) => depth(rule.path) === deepest).at(-1);
        expect(found).toBe(last);
      }),
    );
  });
});

describe("restoreWatched", () => {
  it("moves aside what a command created at a missing protected path, and names it", () => {
    const world = makeWorld(temp());
    const layout = sandboxLayout(worldPolicy(world));
    put(path.join(world.project, ".panto", "config.json"), '{"hooks": {}}');
    const notes = restoreWatched(layout.watched, new Date("2026-01-02T03:04:05.678Z"));
    const aside = path.join(world.project, ".panto.sandbox-refused-2026-01-02T03-04-05-678Z");
    expect(existsSync(path.join(world.project, ".panto"))).toBe(false);
    expect(existsSync(path.join(aside, "config.json"))).toBe(true);
    expect(notes).toEqual([expect.stringContaining(`${path.join(world.project, ".panto")} is protected`)]);
    expect(restoreWatched(sandboxLayout(worldPolicy(world)).watched)).toEqual([]);
  });

  it("puts back a protected symlink a command replaced", () => {
    const world = makeWorld(temp());
    put(path.join(world.project, "settings", "config.json"), "{}");
    symlinkSync("settings", path.join(world.project, ".panto"));
    const layout = sandboxLayout(worldPolicy(world));
    rmSync(path.join(world.project, ".panto"));
    put(path.join(world.project, ".panto", "config.json"), '{"hooks": {}}');
    const notes = restoreWatched(layout.watched);
    expect(readlinkSync(path.join(world.project, ".panto"))).toBe("settings");
    expect(notes).toEqual([expect.stringContaining("the symlink to settings is back")]);
  });
});
