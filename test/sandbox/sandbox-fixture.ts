import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import {
  buildSandboxPolicy,
  type ConfinedMode,
  resolveSandboxSettings,
  type SandboxPolicy,
  type SandboxSettings,
} from "../../src/sandbox/index.js";

/** A project (a git repository) and a home with credentials, under `base`. */
export interface SandboxWorld {
  base: string;
  home: string;
  project: string;
  pantoHome: string;
  outside: string;
  hostTmp: string;
}

/** Writes a file, creating its folders. */
export function put(file: string, content: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
}

/**
 * `base`/home with ~/.ssh/id_ed25519, ~/.aws/credentials, ~/.netrc and $PANTO_HOME/config.json;
 * `base`/home/work/project, a git repository with a file; `base`/outside, a folder beside it; and
 * `base`/host-tmp, standing in for the machine's temporary folder.
 */
export function makeWorld(base: string): SandboxWorld {
  const home = path.join(base, "home");
  const project = path.join(home, "work", "project");
  const pantoHome = path.join(home, ".panto");
  const outside = path.join(base, "outside");
  const hostTmp = path.join(base, "host-tmp");
  put(path.join(home, ".ssh", "id_ed25519"), "PRIVATE KEY\n");
  put(path.join(home, ".aws", "credentials"), "[default]\naws_secret_access_key = secret\n");
  put(path.join(home, ".netrc"), "machine example.com password hunter2\n");
  put(path.join(pantoHome, "config.json"), "{}\n");
  put(path.join(project, "README.md"), "# project\n");
  put(path.join(outside, "note.txt"), "outside\n");
  mkdirSync(path.join(hostTmp, "private", "tmp"), { recursive: true });
  put(path.join(hostTmp, "private", "sealed"), "");
  execFileSync("git", ["init", "-q", project]);
  return { base, home, project, pantoHome, outside, hostTmp };
}

/**
 * A Linux policy over the world, built without starting anything. The world itself sits in the
 * machine's /tmp, so `host-tmp` plays /tmp's part: it is the folder concealed and the view of the
 * private temporary folder (host-tmp/private/tmp), and the real /tmp is left visible.
 */
export function worldPolicy(
  world: SandboxWorld,
  settings: Partial<SandboxSettings> & { mode?: ConfinedMode } = {},
): SandboxPolicy {
  const resolved = { ...resolveSandboxSettings(undefined, undefined), ...settings };
  const mode: ConfinedMode = resolved.mode === "read-only" ? "read-only" : "workspace-write";
  const policy = buildSandboxPolicy(
    { ...resolved, mode },
    {
      projectRoot: world.project,
      home: world.home,
      pantoHome: world.pantoHome,
      tmp: { host: path.join(world.hostTmp, "private", "tmp"), view: world.hostTmp },
      sealedFile: path.join(world.hostTmp, "private", "sealed"),
      platform: "linux",
      hostTmpDir: world.hostTmp,
    },
  );
  return { ...policy, concealedPaths: policy.concealedPaths.filter((concealed) => concealed !== "/tmp") };
}

/** Makes `link` a symlink to `target`, creating its folder. */
export function link(target: string, linkPath: string): void {
  mkdirSync(path.dirname(linkPath), { recursive: true });
  symlinkSync(target, linkPath);
}
