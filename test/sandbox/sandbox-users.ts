import { spawnSync } from "node:child_process";
import { chmodSync, chownSync, lstatSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { findExecutable } from "../../src/sandbox/find-executable.js";

/** Who runs bubblewrap in a test: panto's own user, or (when that is root) an unprivileged one. */
export interface SandboxUser {
  title: string;
  /** Set for the unprivileged user: bubblewrap runs under setpriv with these ids. */
  ids?: { uid: number; gid: number };
  /** Why this user cannot create namespaces here (the tests for it are skipped, saying so). */
  unavailable?: string;
}

const NOBODY = { uid: 65534, gid: 65534 };
const BWRAP = findExecutable("bwrap", process.env.PATH);

/** The command prefix that runs a program as `user`. */
function asUser(user: SandboxUser): string[] {
  if (user.ids === undefined) return [];
  return ["setpriv", `--reuid=${user.ids.uid}`, `--regid=${user.ids.gid}`, "--clear-groups"];
}

/** Why bubblewrap cannot create its namespaces as this user, or undefined when it can. */
function namespaceProblem(user: SandboxUser): string | undefined {
  if (BWRAP === undefined) return "bubblewrap (bwrap) is not installed";
  const command = [
    ...asUser(user),
    BWRAP,
    "--unshare-user",
    "--unshare-pid",
    "--unshare-net",
    "--ro-bind",
    "/",
    "/",
    "true",
  ];
  const result = spawnSync(command[0] ?? BWRAP, command.slice(1), { encoding: "utf8" });
  if (result.status === 0) return undefined;
  return `this machine cannot create namespaces for ${user.title}: ${(result.stderr || String(result.error)).trim()}`;
}

/**
 * The users the sandbox tests run as: the current one and, when it is root, uid 65534 too. Each
 * says why it is unavailable when bubblewrap cannot create namespaces for it (and only then).
 */
export function sandboxUsers(): SandboxUser[] {
  const isRoot = process.getuid?.() === 0;
  const users: SandboxUser[] = [{ title: isRoot ? "as root" : "as the current user" }];
  if (isRoot) users.push({ title: "as an unprivileged user (uid 65534, through setpriv)", ids: NOBODY });
  return users.map((user) => {
    const unavailable = namespaceProblem(user);
    return unavailable === undefined ? user : { ...user, unavailable };
  });
}

/**
 * A PATH on which `bwrap` runs bubblewrap as `user`: the real one for the current user, a wrapper
 * going through setpriv for the unprivileged one (so panto finds and runs it as it would any bwrap).
 */
export function launcherPath(user: SandboxUser, wrapperDirectory: string): string {
  if (user.ids === undefined || BWRAP === undefined) return process.env.PATH ?? "";
  mkdirSync(wrapperDirectory, { recursive: true });
  const wrapper = path.join(wrapperDirectory, "bwrap");
  writeFileSync(wrapper, `#!/bin/sh\nexec ${asUser(user).join(" ")} ${BWRAP} "$@"\n`);
  chmodSync(wrapper, 0o755);
  return `${wrapperDirectory}${path.delimiter}${process.env.PATH ?? ""}`;
}

/** Hands `directory` and everything in it to the user (no-op for the current user). */
export function giveTo(user: SandboxUser, directory: string): void {
  if (user.ids === undefined) return;
  const { uid, gid } = user.ids;
  const visit = (entry: string): void => {
    chownSync(entry, uid, gid);
    if (lstatSync(entry).isDirectory()) {
      chmodSync(entry, 0o755);
      for (const name of readdirSync(entry)) visit(path.join(entry, name));
    }
  };
  visit(directory);
}

/** Runs `command` as `user` on the host (not sandboxed): a control that the user could do it there. */
export function runAsUser(user: SandboxUser, command: string): { status: number | null; output: string } {
  const full = [...asUser(user), "/bin/bash", "-c", command];
  const result = spawnSync(full[0] ?? "/bin/bash", full.slice(1), { encoding: "utf8" });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}
