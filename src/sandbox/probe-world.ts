import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer as createHttpServer } from "node:http";
import { type AddressInfo, createServer as createNetServer, type Server } from "node:net";
import os from "node:os";
import path from "node:path";
import { makeFolder } from "../core/index.js";

/** The scratch folders and servers `panto sandbox` checks the rules against. */
export interface ProbeWorld {
  /** A git repository with .panto: the probe sandbox's project. */
  workspace: string;
  /** A folder beside it, in the machine's temporary folder. */
  outside: string;
  /** A Unix socket listening in `outside`. */
  socket: string;
  /** A TCP port on the host's 127.0.0.1 with a server behind it. */
  port: number;
  remove(): Promise<void>;
}

export async function probeWorld(hostTmpDir = os.tmpdir()): Promise<ProbeWorld> {
  const base = await mkdtemp(path.join(hostTmpDir, "panto-sandbox-probe-"));
  const workspace = path.join(base, "workspace");
  const outside = path.join(base, "outside");
  await makeFolder(path.join(workspace, ".git", "hooks"));
  await mkdir(path.join(workspace, ".panto"));
  await writeFile(path.join(workspace, ".git", "config"), "[core]\n\trepositoryformatversion = 0\n");
  await writeFile(path.join(workspace, ".git", "HEAD"), "ref: refs/heads/main\n");
  await writeFile(path.join(workspace, ".panto", "config.json"), "{}\n");
  await mkdir(outside);
  const socket = path.join(outside, "probe.sock");
  const servers: Server[] = [createNetServer((connection) => connection.destroy())];
  await new Promise<void>((resolve) => servers[0]?.listen(socket, resolve));
  const http = createHttpServer((_request, response) => response.end("panto-probe"));
  http.on("clientError", (_error, connection) => connection.destroy());
  servers.push(http);
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const port = (http.address() as AddressInfo).port;
  return {
    workspace,
    outside,
    socket,
    port,
    async remove() {
      await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
      await rm(base, { recursive: true, force: true });
    },
  };
}
