import { spawn } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { chmod, mkdtemp, readdir, rm, stat, writeFile } from "node:fs/promises";
import * as nodeModule from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseAst } from "rolldown/parseAst";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeAnthropicServer } from "../../src/simulator/fake-anthropic-server.js";
import type { FakeServer } from "../../src/simulator/fake-provider-types.js";
import { cliEnv, tempProject } from "../e2e/run-cli.js";

const BIN_DIR = fileURLToPath(new URL("../../dist/bin", import.meta.url));
const BIN = join(BIN_DIR, "panto.cjs");
/** Node 22.1 and later have a compile cache of their own, which panto.cjs turns on instead. */
const nodeHasCompileCache = (nodeModule as { enableCompileCache?: unknown }).enableCompileCache !== undefined;

let server: FakeServer;
beforeAll(async () => {
  server = await startFakeAnthropicServer();
});
const folders: string[] = [];
afterAll(async () => {
  await server.close();
  await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })));
});

/** A new temporary folder, removed after the tests. */
async function newTmp(): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), "panto-code-cache-test-"));
  folders.push(folder);
  return folder;
}

/** `panto -p hi` through the installed command, with TMPDIR set to `tmp`. */
async function printRun(tmp: string, extra: Record<string, string> = {}): Promise<void> {
  server.enqueue({ type: "text", text: "hello" });
  const { home, project } = await tempProject();
  const env = cliEnv(home, {
    ANTHROPIC_API_KEY: "test-key",
    ANTHROPIC_BASE_URL: server.url,
    TMPDIR: tmp,
    ...extra,
  });
  const { status, stdout, stderr } = await new Promise<{
    status: number | null;
    stdout: string;
    stderr: string;
  }>((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, "-m", "anthropic/claude-sonnet-4-5", "-p", "hi"], {
      cwd: project,
      env,
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ status: code, stdout: out, stderr: err }));
    child.stdin.end();
  });
  expect(status, stderr).toBe(0);
  expect(stdout).toBe("hello\n");
}

/** Each entry of the cache folder with its inode and modification time: a rewrite changes them. */
async function entries(folder: string): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for (const name of await readdir(folder)) {
    const info = await stat(join(folder, name));
    found.set(name, `${info.ino}:${info.mtimeMs}`);
  }
  return found;
}

const cacheFolder = (tmp: string): string => join(tmp, `panto-code-cache-${process.getuid?.() ?? "none"}`);

describe.skipIf(nodeHasCompileCache || process.getuid === undefined)(
  "the installed command's code cache on Node 20 (no compile cache of Node's own)",
  { timeout: 60_000 },
  () => {
    it("keeps V8's code of the files a run loads in a folder of the user's alone, and the next run reads it instead of writing it", async () => {
      const tmp = await newTmp();
      await printRun(tmp);
      const folder = cacheFolder(tmp);
      expect((await stat(folder)).mode & 0o777).toBe(0o700);
      const first = await entries(folder);
      // The start-up chunk, the entry and the adapter the run used, each under its own name.
      for (const prefix of ["print-", "cli-", "anthropic-"])
        expect(
          [...first.keys()].some((name) => name.startsWith(prefix)),
          [...first.keys()].join(", "),
        ).toBe(true);
      for (const name of first.keys()) expect((await stat(join(folder, name))).mode & 0o777).toBe(0o600);
      await printRun(tmp);
      // Read and accepted by V8: a rejected or missing entry would have been written again.
      expect(await entries(folder)).toEqual(first);
    });

    it("replaces entries V8 rejects, and ignores a folder others may write to and a file in its place", async () => {
      const tmp = await newTmp();
      await printRun(tmp);
      const folder = cacheFolder(tmp);
      for (const name of await readdir(folder)) await writeFile(join(folder, name), "not V8's code");
      await printRun(tmp);
      const replaced = await entries(folder);
      for (const name of replaced.keys()) expect((await stat(join(folder, name))).size).toBeGreaterThan(100);
      await printRun(tmp);
      expect(await entries(folder)).toEqual(replaced);

      // A folder others may write to could hold code they chose: neither read nor written.
      await chmod(folder, 0o777);
      for (const name of await readdir(folder)) await writeFile(join(folder, name), "planted");
      await printRun(tmp);
      for (const name of readdirSync(folder))
        expect(statSync(join(folder, name)).size).toBe("planted".length);

      const blocked = await newTmp();
      await writeFile(cacheFolder(blocked), "a file where the folder would be");
      await printRun(blocked);
      expect((await stat(cacheFolder(blocked))).isFile()).toBe(true);
    });

    it("is off with NODE_DISABLE_COMPILE_CACHE=1, as Node's own cache is", async () => {
      const tmp = await newTmp();
      await printRun(tmp, { NODE_DISABLE_COMPILE_CACHE: "1" });
      expect(await readdir(tmp)).not.toContain(`panto-code-cache-${process.getuid?.()}`);
    });
  },
);

describe.skipIf(!nodeHasCompileCache)(
  "the installed command on Node 22.1 and later",
  { timeout: 60_000 },
  () => {
    it("uses Node's own compile cache in the temporary folder, not panto's", async () => {
      const tmp = await newTmp();
      await printRun(tmp);
      const names = await readdir(tmp);
      expect(names).toContain("node-compile-cache");
      expect(names.filter((name) => name.startsWith("panto-code-cache-"))).toEqual([]);
    });
  },
);

describe("the bundle's files", () => {
  it("call no import(): code compiled with V8's cache by panto.cjs has no loader for it (the bundler turns Node's modules into require)", () => {
    const files = readdirSync(BIN_DIR).filter((name) => name.endsWith(".cjs"));
    expect(files.length).toBeGreaterThan(10);
    const withImport = files.filter((name) =>
      JSON.stringify(parseAst(readFileSync(join(BIN_DIR, name), "utf8")), (_key, value: unknown) =>
        typeof value === "bigint" ? String(value) : value,
      ).includes('"type":"ImportExpression"'),
    );
    expect(withImport).toEqual([]);
  });
});
