import { type ChildProcess, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { access, link, mkdir, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { dirname, join } from "node:path";
import { createInterface, type Interface } from "node:readline";
import { beforeEach, describe, expect, it } from "vitest";
import { openSession, SessionError } from "../../src/session/index.js";
import { useLockHolderSandbox } from "../support/lock-holder-sandbox.js";
import { killAndWait, startHolder } from "./child-session-process.js";

const sandbox = useLockHolderSandbox();
const { children } = sandbox;
let moduleDir: string;
let holderScript: string;
let dir: string;
let path: string;

beforeEach(() => {
  ({ moduleDir, holderScript, dir, path } = sandbox);
});

async function refusal(sessionPath: string): Promise<SessionError> {
  const error = await openSession(sessionPath, { cwd: dir }).then(
    async (session) => {
      await session.close();
      return undefined;
    },
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(SessionError);
  return error as SessionError;
}

function userTexts(text: string): string[] {
  return text
    .split("\n")
    .filter((line) => line.includes('"role":"user"'))
    .map((line) => JSON.parse(line).message.content[0].text);
}

/** Other names for `path`'s file, by the way they reach it. */
async function aliases(): Promise<Record<"symlink" | "hard link" | "dot-dot" | "symlinked folder", string>> {
  await mkdir(join(dir, "sub"));
  await symlink(dir, join(dir, "folder-link"));
  await symlink(path, join(dir, "link.jsonl"));
  await link(path, join(dir, "hard.jsonl"));
  return {
    symlink: join(dir, "link.jsonl"),
    "hard link": join(dir, "hard.jsonl"),
    "dot-dot": `${dir}/sub/../s.jsonl`,
    "symlinked folder": join(dir, "folder-link", "s.jsonl"),
  };
}

describe("the session lock holds for the file, whatever name reaches it", () => {
  it("refuses a symlink, a hard link, a .. path and a path through a symlinked folder while another process holds the file", async () => {
    await writeFile(path, "", { mode: 0o600 });
    const names = await aliases();
    const holder = await startHolder(holderScript, path);
    children.push(holder);
    for (const [how, alias] of Object.entries(names)) {
      const error = await refusal(alias);
      expect(error.message, how).toMatch(
        new RegExp(`^session file \\S+ is in use by another panto \\(pid ${holder.pid}, lock file `),
      );
    }
    // None of the refused opens wrote a line.
    expect(userTexts(await readFile(path, "utf8"))).toEqual([`from child ${holder.pid}`]);
  });

  it("refuses the real path while another process holds the file through a hard link or a symlink", async () => {
    await writeFile(path, "", { mode: 0o600 });
    const names = await aliases();
    for (const how of ["hard link", "symlink"] as const) {
      const holder = await startHolder(holderScript, names[how]);
      children.push(holder);
      expect((await refusal(path)).message, how).toContain(`in use by another panto (pid ${holder.pid},`);
      await killAndWait(holder, "SIGKILL");
    }
  });

  it("refuses a second open through a hard link in the same process", async () => {
    const session = await openSession(path, { cwd: dir });
    await link(path, join(dir, "hard.jsonl"));
    expect((await refusal(join(dir, "hard.jsonl"))).message).toContain(
      `in use by another panto (pid ${process.pid},`,
    );
    await session.close();
    const again = await openSession(join(dir, "hard.jsonl"), { cwd: dir });
    await again.close();
  });
});

/** A child process taking `open PATH TAG` / `close` orders (see RACE_SCRIPT). */
class Racer {
  readonly child: ChildProcess;
  readonly #lines: Interface;
  readonly #waiting: Array<(line: string) => void> = [];

  constructor(script: string) {
    this.child = spawn(process.execPath, [script], { stdio: ["pipe", "pipe", "inherit"] });
    this.#lines = createInterface({ input: this.child.stdout as NodeJS.ReadableStream });
    this.#lines.on("line", (line) => this.#waiting.shift()?.(line));
  }

  order(line: string): Promise<string> {
    const answer = new Promise<string>((resolve) => this.#waiting.push(resolve));
    this.child.stdin?.write(`${line}\n`);
    return answer;
  }
}

describe("two processes racing for one session file", () => {
  it("lets exactly one in every time, through the same path, a symlink, a hard link and a .. path, and never interleaves lines", async () => {
    const raceScript = join(moduleDir, "race-session.js");
    const racers = [new Racer(raceScript), new Racer(raceScript)] as const;
    children.push(racers[0].child, racers[1].child);
    const forms = ["same path", "symlink", "hard link", "dot-dot"] as const;
    const ROUNDS = 52;
    let winsCounted = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const form = forms[round % forms.length] as (typeof forms)[number];
      const file = join(dir, `r${round}`, "s.jsonl");
      await mkdir(join(dir, `r${round}`, "sub"), { recursive: true });
      const other = await otherName(file, form);
      // Alternate which racer uses which name.
      const names = round % 2 === 0 ? [file, other] : [other, file];
      const answers = await Promise.all(
        racers.map((racer, index) => racer.order(`open ${names[index]} racer${index}`)),
      );
      const winners = answers.filter((answer) => answer.startsWith("won "));
      expect(winners, `round ${round} (${form}): ${answers.join(" | ")}`).toHaveLength(1);
      const loser = answers.find((answer) => answer.startsWith("refused ")) ?? "";
      const winnerIndex = answers.indexOf(winners[0] as string);
      const winnerPid = racers[winnerIndex]?.child.pid;
      expect(loser).toContain(`is in use by another panto (pid ${winnerPid},`);
      const lines = (await readFile(file, "utf8")).trimEnd().split("\n");
      expect(JSON.parse(lines[0] as string).type).toBe("session");
      expect(userTexts(lines.join("\n"))).toEqual(
        Array.from({ length: 20 }, (_, n) => `racer${winnerIndex} ${n}`),
      );
      expect(await racers[winnerIndex]?.order("close")).toBe("closed");
      winsCounted++;
    }
    expect(winsCounted).toBe(ROUNDS);
  }, 120_000);
});

async function otherName(
  file: string,
  form: "same path" | "symlink" | "hard link" | "dot-dot",
): Promise<string> {
  const folder = dirname(file);
  if (form === "same path") return file;
  if (form === "dot-dot") return `${folder}/sub/../s.jsonl`;
  // A link needs the file to exist: an empty file is a session not yet started.
  await writeFile(file, "", { mode: 0o600 });
  const alias = join(folder, "alias.jsonl");
  await (form === "symlink" ? symlink(file, alias) : link(file, alias));
  return alias;
}

describe("lock drafts", () => {
  function hostTag(): string {
    return createHash("sha256").update(hostname()).digest("hex").slice(0, 8);
  }

  it("removes the draft a process killed while taking the lock left behind, and leaves live and foreign ones", async () => {
    const child = spawn(process.execPath, [join(moduleDir, "leave-draft.js"), path], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    children.push(child);
    const draft = await new Promise<string>((resolve) =>
      child.stdout?.once("data", (data: Buffer) => resolve(data.toString().trim())),
    );
    expect(draft.startsWith(`${path}.lock.draft-${hostTag()}-${child.pid}-`)).toBe(true);
    await killAndWait(child, "SIGKILL");
    const live = `${path}.lock.draft-${hostTag()}-${process.pid}-0000abcd`;
    const foreign = `${path}.lock.stale-0badf00d-${child.pid}-0000abcd`;
    await writeFile(live, "{}");
    await writeFile(foreign, "{}");

    const session = await openSession(path, { cwd: dir });
    await session.close();
    const left = (await readdir(dir)).sort();
    expect(left).toEqual(
      [
        "s.jsonl",
        `s.jsonl.lock.draft-${hostTag()}-${process.pid}-0000abcd`,
        `s.jsonl.lock.stale-0badf00d-${child.pid}-0000abcd`,
      ].sort(),
    );
    await expect(access(draft)).rejects.toThrow();
  });
});
