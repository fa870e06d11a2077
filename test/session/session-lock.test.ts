import { spawn } from "node:child_process";
import { access, readFile, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { openSession, SessionError } from "../../src/session/index.js";
import { useLockHolderSandbox } from "../support/lock-holder-sandbox.js";
import { killAndWait, runChildToExit, startHolder } from "./child-session-process.js";

const sandbox = useLockHolderSandbox();
const { children } = sandbox;
let holderScript: string;
let dir: string;
let path: string;

beforeEach(() => {
  ({ holderScript, dir, path } = sandbox);
});

async function exists(file: string): Promise<boolean> {
  return await access(file).then(
    () => true,
    () => false,
  );
}

/** A process that exited, so its pid is (for the moment) free. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
  await new Promise((resolve) => child.on("exit", resolve));
  return child.pid as number;
}

function userTexts(text: string): string[] {
  return text
    .split("\n")
    .filter((line) => line.includes('"role":"user"'))
    .map((line) => JSON.parse(line).message.content[0].text);
}

describe("the session lock", () => {
  it("refuses a second process while a live one holds the session, naming its pid and the lock file", async () => {
    const holder = await startHolder(holderScript, path);
    children.push(holder);
    const error = await openSession(path, { cwd: dir }).then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(SessionError);
    expect((error as SessionError).message).toBe(
      `session file ${path} is in use by another panto (pid ${holder.pid}, lock file ${path}.lock)`,
    );
    // The refused open wrote nothing: only the holder's entry is there.
    expect(userTexts(await readFile(path, "utf8"))).toEqual([`from child ${holder.pid}`]);
  });

  it("takes over the lock of a holder killed with SIGKILL", async () => {
    const holder = await startHolder(holderScript, path);
    children.push(holder);
    await killAndWait(holder, "SIGKILL");
    expect(JSON.parse(await readFile(`${path}.lock`, "utf8")).pid).toBe(holder.pid);

    const session = await openSession(path, { cwd: dir });
    expect(JSON.parse(await readFile(`${path}.lock`, "utf8"))).toMatchObject({
      pid: process.pid,
      hostname: hostname(),
    });
    await session.appendMessage({ role: "user", content: [{ type: "text", text: "after the crash" }] });
    await session.close();
    expect(userTexts(await readFile(path, "utf8"))).toEqual([`from child ${holder.pid}`, "after the crash"]);
    expect(await exists(`${path}.lock`)).toBe(false);
  });

  it("removes its lock when the process exits without closing the session", async () => {
    expect(await runChildToExit(holderScript, path)).toBe(0);
    expect(await exists(`${path}.lock`)).toBe(false);
    expect(userTexts(await readFile(path, "utf8"))).toHaveLength(1);
  });

  it("lets another process in after close()", async () => {
    const session = await openSession(path, { cwd: dir });
    await session.close();
    expect(await exists(`${path}.lock`)).toBe(false);
    const holder = await startHolder(holderScript, path);
    children.push(holder);
    expect(JSON.parse(await readFile(`${path}.lock`, "utf8")).pid).toBe(holder.pid);
  });

  it("refuses a second open from the same process", async () => {
    const session = await openSession(path, { cwd: dir });
    await expect(openSession(path, { cwd: dir })).rejects.toThrow(
      `in use by another panto (pid ${process.pid},`,
    );
    await session.close();
  });

  it("takes over a lock whose process is dead, one that is empty, and one that is not JSON", async () => {
    const stale = [
      JSON.stringify({ pid: await deadPid(), hostname: hostname(), started: new Date().toISOString() }),
      "",
      '{"pid": 12',
    ];
    for (const content of stale) {
      await writeFile(`${path}.lock`, content);
      const session = await openSession(path, { cwd: dir });
      expect(JSON.parse(await readFile(`${path}.lock`, "utf8")).pid).toBe(process.pid);
      await session.close();
    }
  });

  it("takes over a lock whose pid now belongs to a process started after the lock was taken", async () => {
    const holder = await startHolder(holderScript, join(dir, "other.jsonl"));
    children.push(holder);
    // The lock says this pid took it in 2001; the live process with that pid started just now.
    await writeFile(
      `${path}.lock`,
      JSON.stringify({ pid: holder.pid, hostname: hostname(), started: "2001-01-01T00:00:00.000Z" }),
    );
    const session = await openSession(path, { cwd: dir });
    expect(JSON.parse(await readFile(`${path}.lock`, "utf8")).pid).toBe(process.pid);
    await session.close();
  });

  it("leaves a lock held by another host alone and names that host", async () => {
    const lock = JSON.stringify({ pid: 4242, hostname: "build-box-7", started: new Date().toISOString() });
    await writeFile(`${path}.lock`, lock);
    await expect(openSession(path, { cwd: dir })).rejects.toThrow(
      `session file ${path} is in use by another panto (pid 4242 on host build-box-7, lock file ${path}.lock)`,
    );
    expect(await readFile(`${path}.lock`, "utf8")).toBe(lock);
  });
});
