import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { diagnoseNamespaces, probeSandbox, resolveSandboxSettings } from "../../src/sandbox/index.js";
import { useTempDir } from "../support/use-temp-dir.js";
import { sandboxUsers } from "./sandbox-users.js";

const temp = useTempDir("panto-probe-", { resolveLinks: true });
const [current] = sandboxUsers();
const environment = () => ({
  projectRoot: temp(),
  pantoHome: path.join(temp(), ".panto"),
  env: { PATH: process.env.PATH, HOME: os.homedir() },
});

describe.skipIf(current?.unavailable !== undefined)(
  `panto sandbox's probe${current?.unavailable === undefined ? "" : ` (skipped: ${current.unavailable})`}`,
  () => {
    it("finds every rule holding with the default settings", async () => {
      const report = await probeSandbox(resolveSandboxSettings(undefined, undefined), environment());
      expect(report.failure).toBeUndefined();
      expect(report.checks.map((check) => check.id)).toEqual([
        "writes-inside",
        "writes-outside",
        "protected-paths",
        "credentials-hidden",
        "network",
        "unix-sockets",
        "no-new-privileges",
        "pid-namespace",
        "process-tree",
      ]);
      expect(report.checks.filter((check) => !check.ok)).toEqual([]);
      expect(report).toMatchObject({ ok: true, mode: "workspace-write", network: false });
      expect(report.launcher).toMatchObject({ kind: "bubblewrap" });
    });

    it("reports the network as reachable and read-only mode as not writing the project, as configured", async () => {
      const settings = {
        ...resolveSandboxSettings(undefined, undefined),
        mode: "read-only" as const,
        network: true,
      };
      const report = await probeSandbox(settings, environment());
      const byId = Object.fromEntries(report.checks.map((check) => [check.id, check]));
      expect(byId.network).toMatchObject({ ok: true, detail: expect.stringContaining("was reached") });
      expect(byId["writes-inside"]).toMatchObject({
        ok: true,
        detail: "writing a file in the project failed",
      });
      expect(report.ok).toBe(true);
    });
  },
);

describe("panto sandbox's probe without bubblewrap", () => {
  it("fails with what is missing and the way out", async () => {
    const report = await probeSandbox(resolveSandboxSettings(undefined, undefined), {
      ...environment(),
      env: { PATH: "/nonexistent", HOME: os.homedir() },
    });
    expect(report.ok).toBe(false);
    expect(report.checks).toEqual([]);
    expect(report.failure).toMatch(/needs bubblewrap \(bwrap\), which is not on PATH.*--sandbox full/);
  });
});

describe("diagnoseNamespaces", () => {
  it("names each setting against user namespaces with its fix", () => {
    const settings: Record<string, string> = {
      "/proc/sys/user/max_user_namespaces": "0",
      "/proc/sys/kernel/unprivileged_userns_clone": "0",
      "/proc/sys/kernel/apparmor_restrict_unprivileged_userns": "1",
    };
    const causes = diagnoseNamespaces((file) => settings[file], true);
    expect(causes).toHaveLength(4);
    expect(causes[0]).toContain("sysctl -w user.max_user_namespaces=15000");
    expect(causes[1]).toContain("sysctl -w kernel.unprivileged_userns_clone=1");
    expect(causes[2]).toContain("AppArmor");
    expect(causes[3]).toContain("seccomp=unconfined");
    expect(diagnoseNamespaces(() => undefined, false)).toEqual([]);
  });
});
