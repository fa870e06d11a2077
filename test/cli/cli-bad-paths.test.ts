import { execFileSync, spawnSync } from "node:child_process";
import { chmod, chown, cp, mkdir, readdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { sessionDirectory } from "../../src/session/index.js";
import { useAnthropicSandboxes } from "../support/anthropic-sandboxes.js";
import { PANTO_MAIN, type PantoRun, runPanto, type Sandbox } from "./panto-process.js";
import { TmuxTerminal } from "./tmux-terminal.js";

const MODEL = "anthropic/claude-sonnet-4-5";
const { start, closeAfter } = useAnthropicSandboxes("k");
const setup = () => start({ responder: () => ({ type: "text", text: "answered" }) });

/** Generous for a loaded CI machine; the point is that the run ends (no spinning, no waiting on a FIFO). */
const GIVE_UP_MS = 20_000;
const NOBODY = 65534;
const isRoot = process.getuid?.() === 0;

/** The kinds of path panto cannot use, made fresh inside a sandbox. */
type BadKind = "missing parent" | "file for a folder" | "unwritable" | "/proc" | "FIFO" | "folder for a file";

interface Made {
  path: string;
  /** Run panto as this user (the unwritable kind, as root: chmod does not stop root). */
  asNobody: boolean;
}

/**
 * A bad path of `kind`, `leaf` being what panto is asked to create or write there. "missing
 * parent" is a parent panto cannot create (under /proc); a creatable one is created, by design, for
 * panto's home and --session.
 */
async function makeBad(box: Sandbox, kind: BadKind, leaf: string): Promise<Made> {
  const bad = join(box.root, "bad");
  await mkdir(bad, { recursive: true });
  switch (kind) {
    case "missing parent":
      return { path: join("/proc", "panto-missing", leaf), asNobody: false };
    case "file for a folder":
      await writeFile(join(bad, "plain-file"), "x");
      return { path: join(bad, "plain-file", leaf), asNobody: false };
    case "unwritable": {
      const locked = join(bad, "locked");
      await mkdir(locked, { recursive: true });
      await chmod(locked, 0o555);
      if (isRoot) await chownTree(box);
      return { path: join(locked, leaf), asNobody: isRoot };
    }
    case "/proc":
      return { path: join("/proc", leaf), asNobody: false };
    case "FIFO":
      execFileSync("mkfifo", [join(bad, "pipe")]);
      return { path: join(bad, "pipe"), asNobody: false };
    case "folder for a file":
      await mkdir(join(bad, "a-folder"), { recursive: true });
      return { path: join(bad, "a-folder"), asNobody: false };
  }
}

/** Everything but the locked folder belongs to the unprivileged user, so only that folder is refused. */
async function chownTree(box: Sandbox): Promise<void> {
  await chmod(box.root, 0o755);
  execFileSync("chown", ["-R", `${NOBODY}:${NOBODY}`, box.home, box.project]);
  await chown(join(box.root, "bad"), 0, 0);
}

const AS_NOBODY = ["setpriv", `--reuid=${NOBODY}`, `--regid=${NOBODY}`, "--clear-groups"];

/**
 * The built CLI the unprivileged user can read: this checkout's, or, when the checkout is in a
 * folder only root may enter (a `mktemp -d` clone), the bundled command copied beside the box.
 */
async function nobodysPanto(box: Sandbox): Promise<string> {
  const readable = spawnSync(AS_NOBODY[0] as string, [...AS_NOBODY.slice(1), "test", "-r", PANTO_MAIN]);
  if (readable.status === 0) return PANTO_MAIN;
  const bin = join(dirname(PANTO_MAIN), "..", "bin");
  const copy = join(box.root, "panto-copy");
  await cp(bin, join(copy, "dist", "bin"), { recursive: true });
  await cp(join(bin, "..", "..", "package.json"), join(copy, "package.json"));
  await chmod(box.root, 0o755);
  execFileSync("chmod", ["-R", "a+rX", copy]);
  return join(copy, "dist", "bin", "panto.cjs");
}

async function panto(box: Sandbox, env: NodeJS.ProcessEnv, args: string[], asNobody: boolean) {
  const argv = asNobody
    ? [...AS_NOBODY, process.execPath, await nobodysPanto(box)]
    : [process.execPath, PANTO_MAIN];
  const fullArgs = [...argv.slice(1), ...args];
  const started = Date.now();
  let killed = false;
  const result = await runWith(argv[0] as string, fullArgs, box, env, () => {
    killed = true;
  });
  return { ...result, killed, elapsedMs: Date.now() - started };
}

function runWith(
  file: string,
  args: string[],
  box: Sandbox,
  env: NodeJS.ProcessEnv,
  onKill: () => void,
): Promise<PantoRun> {
  if (file === process.execPath)
    return runPanto(args.slice(1), {
      cwd: box.project,
      env,
      onSpawn: (child) => {
        const timer = setTimeout(() => {
          onKill();
          child.kill("SIGKILL");
        }, GIVE_UP_MS);
        child.on("close", () => clearTimeout(timer));
      },
    });
  return new Promise((resolve, reject) => {
    import("node:child_process").then(({ spawn }) => {
      const child = spawn(file, args, { cwd: box.project, env, stdio: ["pipe", "pipe", "pipe"] });
      let stdout = "";
      let stderr = "";
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
        stdout += chunk;
      });
      child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
        stderr += chunk;
      });
      const timer = setTimeout(() => {
        onKill();
        child.kill("SIGKILL");
      }, GIVE_UP_MS);
      child.on("error", reject);
      child.on("close", (code, signal) => {
        clearTimeout(timer);
        resolve({ code, signal, stdout, stderr });
      });
      child.stdin.end("");
    }, reject);
  });
}

/** The clean refusal every case must end in: exit 2, the path named, no stack trace, no "unexpected". */
function expectCleanRefusal(result: PantoRun & { killed: boolean }, named: string): void {
  expect(result.killed, "the run was killed: it hung").toBe(false);
  expect(result.code, result.stderr).toBe(2);
  expect(result.stderr).toContain(named);
  expect(result.stderr).not.toMatch(/\n\s+at /);
  expect(result.stderr).not.toContain("unexpected error");
}

interface PathCase {
  /** The user-supplied path. */
  what: string;
  kinds: BadKind[];
  /** The leaf name made under a bad parent. */
  leaf: string;
  /** The arguments and environment of the run given the bad path. */
  run(path: string, box: Sandbox): { args: string[]; env?: Record<string, string> };
  /** The path the error must name. */
  named?: (path: string, box: Sandbox) => string;
}

const PROMPT = ["-m", MODEL, "--sandbox", "full", "-p", "hi"];

const CASES: PathCase[] = [
  {
    what: "PANTO_HOME",
    kinds: ["missing parent", "file for a folder", "unwritable", "/proc", "FIFO"],
    leaf: "panto-home",
    run: (path) => ({ args: PROMPT, env: { PANTO_HOME: path } }),
  },
  {
    what: "the checkpoint folder ($PANTO_HOME/checkpoints)",
    kinds: ["file for a folder", "FIFO"],
    leaf: "",
    run: () => ({ args: PROMPT }),
    named: (_path, box) => join(box.home, "checkpoints"),
  },
  {
    what: "TMPDIR (session locks and the sandbox's private folders)",
    kinds: ["missing parent", "file for a folder", "unwritable", "/proc", "FIFO"],
    leaf: "tmp",
    run: (path) => ({ args: PROMPT, env: { TMPDIR: path } }),
  },
  {
    what: "--session",
    kinds: ["missing parent", "file for a folder", "unwritable", "/proc", "FIFO", "folder for a file"],
    leaf: "s.jsonl",
    run: (path) => ({ args: ["--session", path, ...PROMPT] }),
  },
  {
    what: "panto export -o",
    kinds: ["file for a folder", "unwritable", "/proc", "FIFO", "folder for a file"],
    leaf: "out.html",
    run: (path) => ({ args: ["export", "-o", path] }),
  },
];

describe("every path a user gives panto: a clean error naming it, exit 2, no model request (built CLI)", {
  timeout: 120_000,
}, () => {
  for (const pathCase of CASES)
    for (const kind of pathCase.kinds)
      it(`${pathCase.what}: ${kind}`, async () => {
        const { box, server, env } = await setup();
        // export needs a session to export: one real run first.
        if (pathCase.what.startsWith("panto export")) {
          const first = await runPanto(PROMPT, { cwd: box.project, env });
          expect(first.code, first.stderr).toBe(0);
        }
        const before = server.requests.length;
        const made = await makeBad(box, kind, pathCase.leaf);
        if (pathCase.what.startsWith("the checkpoint folder")) {
          // The checkpoint folder is panto's own name under its home: put the bad thing there.
          const target = join(box.home, "checkpoints");
          if (kind === "FIFO") execFileSync("mkfifo", [target]);
          else await writeFile(target, "x");
        }
        const { args, env: extra } = pathCase.run(made.path, box);
        const result = await panto(box, { ...env, ...extra }, args, made.asNobody);
        expectCleanRefusal(
          result,
          pathCase.named?.(made.path, box) ?? made.path.split("/").slice(0, -1).join("/"),
        );
        expect(server.requests.length, "a model request was sent").toBe(before);
      });

  it("PANTO_HOME and --session with a missing parent that can be made: the folders are made and the run works", async () => {
    const { box, server, env } = await setup();
    const home = join(box.root, "new", "home");
    const session = join(box.root, "elsewhere", "deep", "s.jsonl");
    const named = await runPanto(["--session", session, ...PROMPT], {
      cwd: box.project,
      env: { ...env, PANTO_HOME: home },
    });
    expect(named.code, named.stderr).toBe(0);
    expect(named.stdout).toBe("answered\n");
    expect(await readdir(join(box.root, "elsewhere", "deep"))).toEqual(["s.jsonl"]);
    // Checked by making them, then removed: the session lives elsewhere.
    expect(await readdir(box.root)).not.toContain("new");
    const plain = await runPanto(PROMPT, { cwd: box.project, env: { ...env, PANTO_HOME: home } });
    expect(plain.code, plain.stderr).toBe(0);
    expect(await readdir(sessionDirectory(home, box.project))).toHaveLength(1);
    expect(server.requests).toHaveLength(2);
  });
});

describe("one panto per new session file, refused at once (built CLI)", { timeout: 90_000 }, () => {
  it("two runs started together on a new --session: one answers, the other is told who holds it, exit 2", async () => {
    const { box, server, env } = await start({
      firstByteDelayMs: 1_500,
      responder: () => ({ type: "text", text: "answered" }),
    });
    const session = join(box.root, "shared.jsonl");
    const args = ["--session", session, ...PROMPT];
    const [a, b] = await Promise.all([
      runPanto(args, { cwd: box.project, env }),
      runPanto(args, { cwd: box.project, env }),
    ]);
    const codes = [a.code, b.code].sort();
    expect(codes, `${a.stderr}\n${b.stderr}`).toEqual([0, 2]);
    const loser = a.code === 2 ? a : b;
    expect(loser.stderr).toMatch(
      new RegExp(`session file ${session.replace(/[.]/g, "\\.")} is in use by another panto \\(pid \\d+`),
    );
    expect(loser.stderr).not.toMatch(/\n\s+at /);
    expect(server.requests).toHaveLength(1);
  });

  it("a new --session given to a run that sends nothing is not left behind", async () => {
    const { box, env } = await setup();
    const session = join(box.root, "unused.jsonl");
    const result = await runPanto(["--session", session, "-m", MODEL, "--sandbox", "full", "-p", "/help"], {
      cwd: box.project,
      env,
    });
    expect(result.code).toBe(0);
    expect(await readdir(box.root)).not.toContain("unused.jsonl");
  });
});

describe("/export in the interactive session (built CLI in tmux)", { timeout: 90_000 }, () => {
  it("to a folder that does not exist is an error naming it, and the session goes on", async () => {
    const { box, env } = await setup();
    const terminal = closeAfter(
      await TmuxTerminal.start([process.execPath, PANTO_MAIN, "-m", MODEL, "--sandbox", "full"], {
        cwd: box.project,
        env,
      }),
    );
    await terminal.waitFor(/Ctrl-D exits/);
    await terminal.type("hello");
    await terminal.press("Enter");
    await terminal.waitFor(/answered/);
    const missing = join(box.root, "no-such-folder", "page.html");
    await terminal.type(`/export ${missing}`);
    await terminal.press("Enter");
    await terminal.waitFor(/does not exist/);
    await terminal.type("still there?");
    await terminal.press("Enter");
    await terminal.waitFor(/answered[\s\S]*answered/);
    // panto wraps long lines itself: compare with the breaks as spaces.
    expect((await terminal.screen()).replace(/\s+/g, " ")).toContain(
      `cannot write the export to ${missing}: the folder ${join(box.root, "no-such-folder")} does not exist`,
    );
    await terminal.type("/export");
    await terminal.press("Enter");
    await terminal.waitFor(/Exported|exported/);
    expect(
      (await readdir(sessionDirectory(box.home, box.project))).some((name) => name.endsWith(".html")),
    ).toBe(true);
    expect((await readdir(box.project)).some((name) => name.endsWith(".html"))).toBe(false);
  });
});
