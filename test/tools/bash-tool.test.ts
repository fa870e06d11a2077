import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createBashTool, MAX_BASH_OUTPUT_CHARS } from "../../src/tools/index.js";
import { textOf, useTempDir } from "./temp-dir.js";

const bash = createBashTool();

/** Alive and not a zombie (a container's PID 1 may never reap orphans). */
async function isAlive(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => "");
  return stat !== "" && !/^\d+ \(.*\) Z/.test(stat);
}

async function waitUntilDead(pid: number): Promise<boolean> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    if (!(await isAlive(pid))) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

async function readPid(file: string): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const text = await readFile(file, "utf8").catch(() => "");
    if (text.trim() !== "") return Number(text.trim());
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`no pid in ${file}`);
}

describe("bash tool", () => {
  const dir = useTempDir();
  const strays: number[] = [];
  afterEach(() => {
    for (const pid of strays.splice(0)) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
  });

  it("runs in cwd and reports output with exit code 0", async () => {
    const output = await bash.execute({ command: "pwd; echo hi" }, { cwd: dir() });
    expect(output.isError).toBe(false);
    expect(textOf(output)).toBe(`${dir()}\nhi\n\nExit code: 0`);
  });

  it("captures stderr with stdout", async () => {
    const text = textOf(await bash.execute({ command: "echo out; echo err >&2" }, { cwd: dir() }));
    expect(text).toContain("out");
    expect(text).toContain("err");
  });

  it("marks a non-zero exit as an error and reports the code", async () => {
    const output = await bash.execute({ command: "echo failing; exit 3" }, { cwd: dir() });
    expect(output.isError).toBe(true);
    expect(textOf(output)).toBe("failing\n\nExit code: 3");
  });

  it("closes stdin so a reader gets EOF instead of hanging", async () => {
    const output = await bash.execute({ command: "cat; echo done" }, { cwd: dir() });
    expect(textOf(output)).toBe("done\n\nExit code: 0");
  });

  it("says when there was no output", async () => {
    expect(textOf(await bash.execute({ command: "true" }, { cwd: dir() }))).toBe(
      "(no output)\n\nExit code: 0",
    );
  });

  it("caps long output, keeping head and tail and saying how much was cut", async () => {
    const command = "printf START; head -c 100000 /dev/zero | tr '\\0' x; printf END";
    const text = textOf(await bash.execute({ command }, { cwd: dir() }));
    expect(text.startsWith("START")).toBe(true);
    expect(text).toMatch(/END\n\nExit code: 0$/);
    expect(text).toContain(
      `[${100_008 - MAX_BASH_OUTPUT_CHARS} characters cut from the middle of the output]`,
    );
    expect(text.length).toBeLessThan(MAX_BASH_OUTPUT_CHARS + 200);
  });

  it("kills the whole process group on timeout", async () => {
    const pidFile = path.join(dir(), "child.pid");
    const command = `sleep 60 & echo $! > ${pidFile}; wait`;
    const running = bash.execute({ command, timeout_ms: 500 }, { cwd: dir() });
    const childPid = await readPid(pidFile);
    strays.push(childPid);
    const output = await running;
    expect(output.isError).toBe(true);
    expect(textOf(output)).toContain("Command timed out after 500 ms and was killed");
    expect(await waitUntilDead(childPid)).toBe(true);
  });

  it("escalates to SIGKILL when the command ignores SIGTERM", async () => {
    const pidFile = path.join(dir(), "stubborn.pid");
    const command = `trap '' TERM; sleep 60 & echo $! > ${pidFile}; wait`;
    const running = bash.execute({ command, timeout_ms: 300 }, { cwd: dir() });
    const childPid = await readPid(pidFile);
    strays.push(childPid);
    const output = await running;
    expect(textOf(output)).toContain("timed out");
    expect(await waitUntilDead(childPid)).toBe(true);
  });

  it("stops and kills the command when the signal aborts", async () => {
    const pidFile = path.join(dir(), "child.pid");
    const controller = new AbortController();
    const command = `sleep 60 & echo $! > ${pidFile}; wait`;
    const running = bash.execute({ command }, { cwd: dir(), signal: controller.signal });
    const childPid = await readPid(pidFile);
    strays.push(childPid);
    controller.abort();
    const output = await running;
    expect(output.isError).toBe(true);
    expect(textOf(output)).toContain("Command aborted and killed");
    expect(await waitUntilDead(childPid)).toBe(true);
  });

  it("does not start when already aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    const marker = path.join(dir(), "ran");
    const output = await bash.execute(
      { command: `touch ${marker}` },
      { cwd: dir(), signal: controller.signal },
    );
    expect(output.isError).toBe(true);
    expect(await readFile(marker).catch(() => "absent")).toBe("absent");
  });

  it("returns when the shell exits even if a background child keeps the pipes open", async () => {
    const pidFile = path.join(dir(), "bg.pid");
    const output = await bash.execute(
      { command: `sleep 60 & echo $! > ${pidFile}; echo started` },
      { cwd: dir() },
    );
    strays.push(await readPid(pidFile));
    expect(textOf(output)).toBe("started\n\nExit code: 0");
  });

  it("rejects a timeout above the maximum, naming the argument", async () => {
    const output = await bash.execute({ command: "true", timeout_ms: 700_000 }, { cwd: dir() });
    expect(output.isError).toBe(true);
    expect(textOf(output)).toContain('"timeout_ms"');
  });

  it("reports a missing working directory clearly", async () => {
    const output = await bash.execute({ command: "true" }, { cwd: path.join(dir(), "gone") });
    expect(output.isError).toBe(true);
    expect(textOf(output)).toContain("does not exist");
  });
});
