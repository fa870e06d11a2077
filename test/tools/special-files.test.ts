import { execFileSync } from "node:child_process";
import { constants } from "node:fs";
import { mkdir, open, readFile, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  createEditTool,
  createGrepTool,
  createReadTool,
  createWriteTool,
  type ToolOutput,
} from "../../src/tools/index.js";
import { openRegularFile, READ_ONLY } from "../../src/tools/regular-file.js";
import { textOf, useTempDir } from "./temp-dir.js";

const dir = useTempDir();
let servers: Server[] = [];

afterEach(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  servers = [];
});

function makeFifo(name: string): string {
  const fifo = path.join(dir(), name);
  execFileSync("mkfifo", [fifo]);
  return fifo;
}

async function makeSocket(name: string): Promise<string> {
  const socketPath = path.join(dir(), name);
  const server = createServer();
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  return socketPath;
}

/** Nobody holds the FIFO open for reading: opening it to write without waiting fails with ENXIO. */
async function fifoHasNoReader(fifo: string): Promise<boolean> {
  return await open(fifo, constants.O_WRONLY | constants.O_NONBLOCK).then(
    async (handle) => {
      await handle.close();
      return false;
    },
    (error: NodeJS.ErrnoException) => error.code === "ENXIO",
  );
}

function expectRefused(output: ToolOutput, shown: string, kind: string): void {
  expect(output.isError).toBe(true);
  expect(textOf(output)).toMatch(new RegExp(`^${shown.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")} is ${kind}`));
}

describe("tools refuse pipes, sockets and devices at once instead of hanging", () => {
  it("read refuses a FIFO, naming it, without opening it", async () => {
    const fifo = makeFifo("pipe");
    const output = await createReadTool().execute({ path: "pipe" }, { cwd: dir() });
    expectRefused(output, "pipe", "a named pipe \\(FIFO\\)");
    expect(textOf(output)).toContain("read only works on regular files");
    expect(await fifoHasNoReader(fifo)).toBe(true);
  });

  it("read refuses a socket and character devices", async () => {
    await makeSocket("agent.sock");
    expectRefused(
      await createReadTool().execute({ path: "agent.sock" }, { cwd: dir() }),
      "agent.sock",
      "a socket",
    );
    for (const device of ["/dev/zero", "/dev/null", "/dev/urandom"]) {
      expectRefused(
        await createReadTool().execute({ path: device }, { cwd: dir() }),
        device,
        "a character device",
      );
    }
  });

  it("opening without waiting refuses a FIFO that a stat before it did not see (the name swapped in between)", async () => {
    const fifo = makeFifo("swapped");
    await expect(openRegularFile(fifo, "swapped", "read", READ_ONLY)).rejects.toThrow(
      "swapped is a named pipe (FIFO), not a regular file",
    );
    expect(await fifoHasNoReader(fifo)).toBe(true);
  });

  it("write and edit refuse a FIFO and a device and leave them alone", async () => {
    const fifo = makeFifo("out");
    expectRefused(
      await createWriteTool().execute({ path: "out", content: "x" }, { cwd: dir() }),
      "out",
      "a named pipe \\(FIFO\\)",
    );
    expectRefused(
      await createEditTool().execute({ path: "out", old_string: "a", new_string: "b" }, { cwd: dir() }),
      "out",
      "a named pipe \\(FIFO\\)",
    );
    expectRefused(
      await createWriteTool().execute({ path: "/dev/null", content: "x" }, { cwd: dir() }),
      "/dev/null",
      "a character device",
    );
    expect(await fifoHasNoReader(fifo)).toBe(true);
  });

  it("grep refuses a FIFO or device given as its path, and skips pipes and sockets inside a folder", async () => {
    expectRefused(
      await createGrepTool().execute({ pattern: "x", path: "/dev/zero" }, { cwd: dir() }),
      "/dev/zero",
      "a character device",
    );
    await mkdir(path.join(dir(), "src"));
    await writeFile(path.join(dir(), "src", "a.txt"), "needle here\n");
    const fifo = makeFifo("src/pipe.txt");
    await makeSocket("src/s.sock");
    const output = await createGrepTool().execute({ pattern: "needle" }, { cwd: dir() });
    expect(textOf(output)).toBe("src/a.txt:1: needle here");
    expectRefused(
      await createGrepTool().execute({ pattern: "x", path: "src/pipe.txt" }, { cwd: dir() }),
      "src/pipe.txt",
      "a named pipe \\(FIFO\\)",
    );
    expect(await fifoHasNoReader(fifo)).toBe(true);
  });

  it("still reads, writes and edits regular files through the same checks", async () => {
    const write = await createWriteTool().execute({ path: "f.txt", content: "one two\n" }, { cwd: dir() });
    expect(textOf(write)).toBe("Created f.txt: 8 bytes, 1 line");
    await createEditTool().execute({ path: "f.txt", old_string: "two", new_string: "2" }, { cwd: dir() });
    expect(await readFile(path.join(dir(), "f.txt"), "utf8")).toBe("one 2\n");
    expect(textOf(await createReadTool().execute({ path: "f.txt" }, { cwd: dir() }))).toBe("     1\tone 2");
  });
});
