import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  checkAccess,
  hostPathOf,
  SandboxRefusal,
  sandboxLayout,
  viewPathOf,
} from "../../src/sandbox/index.js";
import { useTempDir } from "../support/use-temp-dir.js";
import { link, makeWorld, put, type SandboxWorld, worldPolicy } from "./sandbox-fixture.js";

const temp = useTempDir("panto-check-access-", { resolveLinks: true });

function refusalOf(run: () => unknown): SandboxRefusal {
  try {
    run();
  } catch (error) {
    if (error instanceof SandboxRefusal) return error;
    throw error;
  }
  throw new Error("expected a refusal");
}

function access(world: SandboxWorld, given: string, intent: "read" | "write", options = {}) {
  const layout = sandboxLayout(worldPolicy(world, options));
  return () => checkAccess(layout, path.resolve(world.project, given), intent, given);
}

describe("the file tools' sandbox check", () => {
  it("lets tools read and write inside the project, and returns the real path", () => {
    const world = makeWorld(temp());
    expect(access(world, "README.md", "read")()).toBe(path.join(world.project, "README.md"));
    expect(access(world, "src/new/file.ts", "write")()).toBe(path.join(world.project, "src/new/file.ts"));
  });

  it("refuses ~/.ssh/id_* and panto's own home for reading, naming the rule", () => {
    const world = makeWorld(temp());
    const key = refusalOf(access(world, path.join(world.home, ".ssh", "id_ed25519"), "read"));
    expect(key.rule).toBe("hidden-credentials");
    expect(key.message).toContain("rule hidden-credentials");
    expect(refusalOf(access(world, path.join(world.pantoHome, "config.json"), "read")).rule).toBe(
      "hidden-credentials",
    );
  });

  it("refuses writing ../outside, but lets it be read (the shell sees it read-only too)", () => {
    const world = makeWorld(temp());
    const refusal = refusalOf(access(world, "../../../outside/note.txt", "write"));
    expect(refusal.rule).toBe("outside-writable-roots");
    expect(refusal.message).toContain(
      `only ${world.project}, the private temporary folder ${world.hostTmp} may be written`,
    );
    expect(access(world, "../../../outside/note.txt", "read")()).toBe(path.join(world.outside, "note.txt"));
  });

  it("follows a symlink out of the workspace and refuses writing through it", () => {
    const world = makeWorld(temp());
    link(world.outside, path.join(world.project, "escape"));
    expect(refusalOf(access(world, "escape/note.txt", "write")).rule).toBe("outside-writable-roots");
    expect(refusalOf(access(world, "escape/new-file.txt", "write")).rule).toBe("outside-writable-roots");
  });

  it("follows a symlink into a credential folder and refuses reading through it", () => {
    const world = makeWorld(temp());
    link(path.join(world.home, ".ssh", "id_ed25519"), path.join(world.project, "key.txt"));
    link(path.join(world.home, ".aws"), path.join(world.project, "cloud"));
    expect(refusalOf(access(world, "key.txt", "read")).rule).toBe("hidden-credentials");
    expect(refusalOf(access(world, "cloud/credentials", "read")).rule).toBe("hidden-credentials");
  });

  it("follows a dangling symlink to where a write through it would land", () => {
    const world = makeWorld(temp());
    link(path.join(world.outside, "planted.sh"), path.join(world.project, "run.sh"));
    expect(refusalOf(access(world, "run.sh", "write")).rule).toBe("outside-writable-roots");
  });

  it("refuses writing protected paths, existing or not, and through a symlink to them", () => {
    const world = makeWorld(temp());
    for (const given of [".git/config", ".git/hooks/pre-commit", ".panto/config.json", ".mcp.json"]) {
      expect(refusalOf(access(world, given, "write")).rule).toBe("protected-path");
    }
    link(path.join(world.project, ".git", "config"), path.join(world.project, "innocent.txt"));
    expect(refusalOf(access(world, "innocent.txt", "write")).rule).toBe("protected-path");
    expect(access(world, ".git/config", "read")()).toBe(path.join(world.project, ".git", "config"));
  });

  it("writes nothing in read-only mode but the private temporary folder", () => {
    const world = makeWorld(temp());
    expect(refusalOf(access(world, "README.md", "write", { mode: "read-only" })).rule).toBe(
      "outside-writable-roots",
    );
    const tmpFile = access(world, path.join(world.hostTmp, "scratch.txt"), "write", { mode: "read-only" })();
    expect(tmpFile).toBe(path.join(world.hostTmp, "private", "tmp", "scratch.txt"));
  });

  it("maps /tmp (here host-tmp) to the private temporary folder, except folders mounted at their own path under it", () => {
    const world = makeWorld(temp());
    const inTmp = path.join(world.hostTmp, "checkout");
    put(path.join(inTmp, "file.txt"), "x");
    const layout = sandboxLayout(worldPolicy(world, { writableRoots: [inTmp] }));
    const privateTmp = path.join(world.hostTmp, "private", "tmp");
    expect(hostPathOf(layout, path.join(world.hostTmp, "a", "b.txt"))).toBe(
      path.join(privateTmp, "a", "b.txt"),
    );
    expect(viewPathOf(layout, path.join(privateTmp, "a", "b.txt"))).toBe(
      path.join(world.hostTmp, "a", "b.txt"),
    );
    expect(hostPathOf(layout, path.join(inTmp, "file.txt"))).toBe(path.join(inTmp, "file.txt"));
  });

  it("refuses what commands cannot see: /run, where the machine's sockets are, and panto's own /proc", () => {
    const world = makeWorld(temp());
    expect(refusalOf(access(world, "/run/docker.sock", "read")).rule).toBe("outside-sandbox");
    expect(refusalOf(access(world, "/proc/self/environ", "read")).rule).toBe("outside-sandbox");
  });
});
