import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { confinedShell } from "../../src/sandbox/confined-shell.js";
import { findExecutable } from "../../src/sandbox/find-executable.js";
import { processesWith, useSandboxRun, waitForNoProcess } from "./sandbox-run.js";
import { sandboxUsers } from "./sandbox-users.js";

const LIMITS = { maxProcesses: 20, maxMemoryMb: 256 };

for (const user of sandboxUsers()) {
  const title = `command limits under bubblewrap ${user.title}${user.unavailable === undefined ? "" : ` (skipped: ${user.unavailable})`}`;
  if (user.unavailable !== undefined) console.warn(`Skipping: ${title}`);

  describe.skipIf(user.unavailable !== undefined)(title, () => {
    const sandboxed = useSandboxRun(user);

    it("stops a fork loop at sandbox.max_processes, names the key, and the next command runs", async () => {
      const run = sandboxed(LIMITS);
      const marker = `sleep 30.${process.pid}${user.ids === undefined ? 1 : 2}`;
      let most = 0;
      const poll = setInterval(() => {
        most = Math.max(most, processesWith(marker).length);
      }, 20);
      const result = await run.bash(
        `for i in $(seq 1 ${LIMITS.maxProcesses * 10}); do ${marker} & done; wait`,
        {
          timeoutMs: 3000,
        },
      );
      clearInterval(poll);
      expect(result.isError).toBe(true);
      expect(result.text).toContain("Resource temporarily unavailable");
      expect(result.text).toContain(`at most ${LIMITS.maxProcesses} processes`);
      expect(result.text).toContain("sandbox.max_processes");
      expect(most).toBeGreaterThan(0);
      expect(most).toBeLessThanOrEqual(LIMITS.maxProcesses);
      expect(await waitForNoProcess(marker)).toEqual([]);
      expect((await run.bash("echo still-here")).text).toContain("still-here");
    });

    it("fails an allocation past sandbox.max_memory_mb and names the key", async () => {
      const run = sandboxed(LIMITS);
      const result = await run.bash("set -o pipefail; head -c 600M /dev/zero | tail | wc -c");
      expect(result.isError).toBe(true);
      expect(result.text).toContain("memory exhausted");
      expect(result.text).toContain(`at most ${LIMITS.maxMemoryMb} MB`);
      expect(result.text).toContain("sandbox.max_memory_mb");
      const fits = await run.bash("head -c 100M /dev/zero | tail | wc -c");
      expect(fits.text).toContain("104857600");
    });
  });
}

describe("the rlimits alone (no cgroup), for an unprivileged user in bubblewrap's user namespace", () => {
  const bwrap = findExecutable("bwrap", process.env.PATH);
  const root = process.getuid?.() === 0;
  it.skipIf(bwrap === undefined || !root)(
    "bound processes with RLIMIT_NPROC counted in the namespace",
    () => {
      const argv = confinedShell(
        // dash gives up at the first fork refused (bash would retry for seconds); counting forks nothing.
        `sh -c 'i=0; while [ $i -lt 60 ]; do sleep 5 & i=$((i+1)); done' 2>/dev/null; n=0; for p in /proc/[0-9]*; do n=$((n+1)); done; echo "$n"`,
        { maxProcesses: 20, maxMemoryMb: 256 },
      );
      const result = spawnSync(
        "setpriv",
        [
          "--reuid=65534",
          "--regid=65534",
          "--clear-groups",
          bwrap ?? "bwrap",
          "--die-with-parent",
          "--unshare-user",
          "--unshare-pid",
          "--ro-bind",
          "/",
          "/",
          "--proc",
          "/proc",
          "--dev",
          "/dev",
          ...argv,
        ],
        { encoding: "utf8", timeout: 20_000 },
      );
      // Processes in the namespace: bash, its sleeps and the counting pipeline, never past 20 at once.
      const count = Number(result.stdout.trim().split("\n").at(-1));
      expect(count).toBeGreaterThan(5);
      expect(count).toBeLessThanOrEqual(20);
    },
  );
});
