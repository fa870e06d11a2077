import path from "node:path";
import { describe, expect, it } from "vitest";
import { bubblewrapArgs, sandboxLayout } from "../../src/sandbox/index.js";
import { useTempDir } from "../support/use-temp-dir.js";
import { makeWorld, worldPolicy } from "./sandbox-fixture.js";

const temp = useTempDir("panto-bwrap-args-", { resolveLinks: true });

/** The index of `option TARGET...` in `args` (a mount naming its destination last). */
function mountIndex(args: readonly string[], option: string, ...operands: string[]): number {
  return args.findIndex(
    (arg, index) => arg === option && operands.every((operand, at) => args[index + 1 + at] === operand),
  );
}

describe("bubblewrap arguments", () => {
  it("isolate the process: namespaces, no capabilities, own session, die with panto, network off by default", () => {
    const world = makeWorld(temp());
    const args = bubblewrapArgs(sandboxLayout(worldPolicy(world)), world.project);
    for (const flag of [
      "--die-with-parent",
      "--new-session",
      "--unshare-pid",
      "--unshare-user",
      "--unshare-net",
    ]) {
      expect(args).toContain(flag);
    }
    expect(mountIndex(args, "--cap-drop", "ALL")).toBeGreaterThanOrEqual(0);
    expect(args.slice(-5)).toEqual(["--setenv", "TMPDIR", world.hostTmp, "--chdir", world.project]);
  });

  it("keep the network namespace when the network is on", () => {
    const world = makeWorld(temp());
    expect(bubblewrapArgs(sandboxLayout(worldPolicy(world, { network: true })), world.project)).not.toContain(
      "--unshare-net",
    );
  });

  it("mount the root read-only first, then the private temporary folder on /tmp, the project writable, then its protected paths", () => {
    const world = makeWorld(temp());
    const policy = worldPolicy(world);
    const args = bubblewrapArgs(sandboxLayout(policy), world.project);
    const root = mountIndex(args, "--ro-bind", "/", "/");
    const tmp = mountIndex(args, "--bind", policy.tmp.host, world.hostTmp);
    const project = mountIndex(args, "--bind", world.project, world.project);
    const config = path.join(world.project, ".git", "config");
    const protectedConfig = mountIndex(args, "--ro-bind", config, config);
    expect(root).toBeGreaterThanOrEqual(0);
    expect(tmp).toBeGreaterThan(root);
    expect(project).toBeGreaterThan(tmp);
    expect(protectedConfig).toBeGreaterThan(project);
    expect(mountIndex(args, "--tmpfs", "/run")).toBeGreaterThan(root);
    expect(mountIndex(args, "--remount-ro", "/run")).toBeGreaterThan(protectedConfig);
    expect(mountIndex(args, "--proc", "/proc")).toBeGreaterThan(root);
  });

  it("lay an unreadable empty folder over credential folders and the sealed file over credential files", () => {
    const world = makeWorld(temp());
    const policy = worldPolicy(world, { writableRoots: ["~"] });
    const args = bubblewrapArgs(sandboxLayout(policy), world.project);
    const ssh = path.join(world.home, ".ssh");
    const home = mountIndex(args, "--bind", world.home, world.home);
    const hiddenSsh = mountIndex(args, "--perms", "0000", "--tmpfs", ssh);
    expect(hiddenSsh).toBeGreaterThan(home);
    expect(mountIndex(args, "--remount-ro", ssh)).toBeGreaterThan(hiddenSsh);
    const netrc = path.join(world.home, ".netrc");
    expect(mountIndex(args, "--ro-bind", policy.sealedFile, netrc)).toBeGreaterThan(home);
  });

  it("mount nothing for protected paths outside the writable folders (read-only already) or missing ones", () => {
    const world = makeWorld(temp());
    const args = bubblewrapArgs(sandboxLayout(worldPolicy(world, { mode: "read-only" })), world.project);
    expect(args.join(" ")).not.toContain(path.join(world.project, ".git", "config"));
    expect(args.join(" ")).not.toContain(path.join(world.project, ".panto"));
    expect(mountIndex(args, "--bind", world.project, world.project)).toBe(-1);
  });
});
