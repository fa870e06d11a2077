import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  buildSandboxPolicy,
  resolveSandboxSettings,
  SandboxError,
  type SandboxPolicy,
  sandboxLayout,
  sbplString,
  seatbeltProfile,
} from "../../src/sandbox/index.js";
import { useTempDir } from "../support/use-temp-dir.js";
import { makeWorld, type SandboxWorld } from "./sandbox-fixture.js";

const temp = useTempDir("panto-seatbelt-", { resolveLinks: true });

/** The policy macOS would get for the world (no Mac here: the profile is checked as text). */
function macPolicy(world: SandboxWorld, network = false): SandboxPolicy {
  return buildSandboxPolicy(
    { ...resolveSandboxSettings(undefined, undefined), mode: "workspace-write", network },
    {
      projectRoot: world.project,
      home: world.home,
      pantoHome: world.pantoHome,
      tmp: {
        host: path.join(world.hostTmp, "private", "tmp"),
        view: path.join(world.hostTmp, "private", "tmp"),
      },
      sealedFile: path.join(world.hostTmp, "private", "sealed"),
      platform: "darwin",
      hostTmpDir: world.hostTmp,
    },
  );
}

/** The line index of the first form containing every fragment. */
function lineOf(profile: string, ...fragments: string[]): number {
  return profile.split("\n").findIndex((line) => fragments.every((fragment) => line.includes(fragment)));
}

describe("Seatbelt profile", () => {
  it("denies by default and allows reading the file system", () => {
    const world = makeWorld(temp());
    const profile = seatbeltProfile(sandboxLayout(macPolicy(world)));
    expect(profile.startsWith("(version 1)\n(deny default)\n")).toBe(true);
    expect(profile).toContain('(allow file-read* (subpath "/"))');
  });

  it("allows writing the project and the private temporary folder, then denies the protected paths after", () => {
    const world = makeWorld(temp());
    const policy = macPolicy(world);
    const profile = seatbeltProfile(sandboxLayout(policy));
    const project = lineOf(profile, "(allow file-read* file-write*", `(subpath "${world.project}")`);
    expect(project).toBeGreaterThan(0);
    expect(
      lineOf(profile, "(allow file-read* file-write*", `(subpath "${policy.tmp.host}")`),
    ).toBeGreaterThan(0);
    for (const name of [".git/config", ".git/hooks", ".panto", ".mcp.json"]) {
      expect(
        lineOf(profile, "(deny file-write*", `(subpath "${path.join(world.project, name)}")`),
      ).toBeGreaterThan(project);
    }
  });

  it("denies reading and connecting to credential folders and the machine's temporary folders", () => {
    const world = makeWorld(temp());
    const profile = seatbeltProfile(sandboxLayout(macPolicy(world)));
    for (const hidden of [
      path.join(world.home, ".ssh"),
      path.join(world.home, ".netrc"),
      world.pantoHome,
      world.hostTmp,
    ]) {
      const denied = lineOf(profile, "(deny file-read* file-write*", `(subpath "${hidden}")`);
      expect(denied).toBeGreaterThan(lineOf(profile, '(allow file-read* (subpath "/"))'));
      expect(profile).toContain(`(deny network-outbound (remote unix-socket (subpath "${hidden}")))`);
    }
  });

  it("denies the network when off, allowing Unix sockets only inside the writable folders", () => {
    const world = makeWorld(temp());
    const off = seatbeltProfile(sandboxLayout(macPolicy(world)));
    expect(off).toContain("(deny network*)");
    expect(off).not.toContain("(allow network*)");
    expect(off).toContain(`(allow network-outbound (remote unix-socket (subpath "${world.project}")))`);
    expect(off).not.toContain('(allow network-outbound (remote unix-socket (subpath "/")))');
    const on = seatbeltProfile(sandboxLayout(macPolicy(world, true)));
    expect(on).toContain("(allow network*)");
    expect(on).toContain('(allow network-outbound (remote unix-socket (subpath "/")))');
  });

  it("quotes paths as SBPL strings and refuses control characters", () => {
    expect(sbplString('/a "b"\\c')).toBe('"/a \\"b\\"\\\\c"');
    expect(() => sbplString("/a\nb")).toThrow(SandboxError);
  });
});

describe("Seatbelt profile devices", () => {
  it("lets programs write /dev/null and the terminal, after every path rule", () => {
    const world = makeWorld(temp());
    const lines = seatbeltProfile(sandboxLayout(macPolicy(world)))
      .trimEnd()
      .split("\n");
    expect(lines.at(-1)).toContain('(allow file-read* file-write-data file-ioctl (literal "/dev/null")');
    expect(lines).not.toContain('(deny file-write* (subpath "/"))');
  });
});
