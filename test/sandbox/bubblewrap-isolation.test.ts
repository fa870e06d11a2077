import { spawn } from "node:child_process";
import { accessSync, chmodSync, constants } from "node:fs";
import { createServer as createHttpServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createServer as createNetServer, type Server as NetServer } from "node:net";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { processesWith, useSandboxRun, waitForNoProcess } from "./sandbox-run.js";
import { runAsUser, sandboxUsers } from "./sandbox-users.js";

const servers: Array<Server | NetServer> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** An HTTP server on the host's 127.0.0.1 answering "host-server". */
async function hostServer(): Promise<number> {
  const server = createHttpServer((_request, response) => response.end("host-server"));
  // nc -z connects and leaves at once.
  server.on("clientError", (_error, socket) => socket.destroy());
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

/** A Unix socket listening at `socketPath`, connectable by anyone. */
async function socketServer(socketPath: string): Promise<void> {
  const server = createNetServer((socket) => {
    socket.on("error", () => undefined);
    socket.end("socket-server");
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  chmodSync(socketPath, 0o777);
}

function writable(directory: string): boolean {
  try {
    accessSync(directory, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

const NETWORK_PROBES = {
  curl: (port: number) => `curl -sS -m 3 http://127.0.0.1:${port}/`,
  nc: (port: number) => `nc -z -w 3 127.0.0.1 ${port} && echo nc-connected`,
  "/dev/tcp": (port: number) => `exec 3<>/dev/tcp/127.0.0.1/${port} && echo devtcp-connected`,
};

for (const user of sandboxUsers()) {
  const title = `bubblewrap sandbox ${user.title}${user.unavailable === undefined ? "" : ` (skipped: ${user.unavailable})`}`;
  if (user.unavailable !== undefined) console.warn(`Skipping: ${title}`);

  describe.skipIf(user.unavailable !== undefined)(title, () => {
    const sandboxed = useSandboxRun(user);

    it("runs commands as that user, with no new privileges", async () => {
      const { bash } = sandboxed();
      const result = await bash("id -u; grep NoNewPrivs /proc/self/status");
      expect(result.text).toContain(`${user.ids?.uid ?? process.getuid?.()}\nNoNewPrivs:\t1`);
    });

    for (const [tool, probe] of Object.entries(NETWORK_PROBES)) {
      it(`cannot reach a server on the host's 127.0.0.1 with ${tool} when the network is off, and can when it is on`, async () => {
        const port = await hostServer();
        const off = await sandboxed().bash(probe(port));
        expect(off.isError).toBe(true);
        expect(off.text).not.toMatch(/host-server|connected/);
        const on = await sandboxed({ network: true }).bash(probe(port));
        expect(on.isError).toBe(false);
        expect(on.text).toMatch(/host-server|nc-connected|devtcp-connected/);
      });
    }

    it("cannot connect to a Unix socket in a temporary folder outside, nor in /run, but can to one in the project", async () => {
      const { world, bash } = sandboxed();
      const outside = path.join(world.outside, "agent.sock");
      const inRun = `/run/panto-sandbox-test-${process.pid}-${Date.now()}.sock`;
      const inProject = path.join(world.project, "app.sock");
      await socketServer(outside);
      await socketServer(inProject);
      const sockets = [outside, ...(writable("/run") ? [inRun] : [])];
      if (sockets.includes(inRun)) await socketServer(inRun);
      for (const socket of sockets) expect(runAsUser(user, `nc -U -z ${socket}`).status).toBe(0);
      for (const socket of sockets) {
        const result = await bash(`nc -U -z ${socket} && echo connected`);
        expect(result.isError, socket).toBe(true);
        expect(result.text).not.toContain("connected\n");
      }
      const control = await bash(`nc -U -z ${inProject} && echo connected`);
      expect(control.text).toContain("connected");
    });

    it("cannot signal a process of the host", async () => {
      // A duration no other suite on this machine uses at the same time, to find this process alone.
      const marker = `1000.${process.pid}${Date.now() % 1000}`;
      const host = spawn("sleep", [marker], { stdio: "ignore" });
      try {
        const result = await sandboxed().bash(
          `kill -TERM ${host.pid}; kill -0 ${process.pid} && echo can-see-panto`,
        );
        expect(result.text).not.toContain("can-see-panto");
        expect(processesWith(marker)).toEqual([host.pid]);
      } finally {
        host.kill("SIGKILL");
      }
    });

    it("takes background and setsid children down with the command when it exits", async () => {
      const result = await sandboxed().bash("sleep 1001.5 & setsid sleep 1001.6 & echo started");
      expect(result.text).toContain("started");
      expect(await waitForNoProcess("1001.5")).toEqual([]);
      expect(await waitForNoProcess("1001.6")).toEqual([]);
    });

    it("kills the whole tree, setsid children too, on timeout and on interrupt", async () => {
      const { bash } = sandboxed();
      const timedOut = await bash("setsid sleep 1002.5 & sleep 1002.6", { timeoutMs: 700 });
      expect(timedOut.text).toContain("timed out after 700 ms");
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 700);
      const aborted = await bash("setsid sleep 1002.7 & sleep 1002.8", { signal: controller.signal });
      expect(aborted.text).toContain("aborted");
      for (const marker of ["1002.5", "1002.6", "1002.7", "1002.8"]) {
        expect(await waitForNoProcess(marker), marker).toEqual([]);
      }
    });
  });
}
