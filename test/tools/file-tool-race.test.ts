import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  createEditTool,
  createGrepTool,
  createLsTool,
  createReadTool,
  createWriteTool,
  type ToolContext,
} from "../../src/tools/index.js";
import { put } from "../sandbox/sandbox-fixture.js";
import { type SandboxRun, useSandboxRun } from "../sandbox/sandbox-run.js";
import { giveTo, type SandboxUser, sandboxUsers } from "../sandbox/sandbox-users.js";
import { textOf } from "./temp-dir.js";

/*
 * The attack of issue 35: a command in the sandbox swaps a folder `d` with a symlink `l` to a
 * folder outside the policy as fast as it can, while the in-process tools read, write and edit
 * through `d` thousands of times. The swapper is a real sandboxed command (the bash tool, real
 * bubblewrap, as each test user); the tools run here, through the real sandbox's policy. Three
 * renames per swap (bubblewrap's Node has no renameat2 exchange, nor `mv --exchange` here): `d` is
 * also missing for a moment, which widens the states the tools meet. Both loops are bounded by
 * count and by time.
 */

const CALLS = 1500;
const SECONDS = 4;
/** On a loaded machine the race may need longer to meet both states: it goes on (the swapper lives SECONDS + 20 s). */
const MORE_SECONDS = 15;

/**
 * Whether a loop goes on: within its count and time, or past them while the race has not yet
 * met both ways the folder points (`seenBoth`), up to MORE_SECONDS longer.
 */
function goOn(call: number, limit: number, started: number, seenBoth: () => boolean): boolean {
  const elapsed = Date.now() - started;
  if (call < limit && elapsed < SECONDS * 1000) return true;
  return !seenBoth() && elapsed < (SECONDS + MORE_SECONDS) * 1000;
}

const SWAPPER = `
const fs = require("node:fs");
process.chdir(process.argv[2]);
const end = Date.now() + ${SECONDS + 20} * 1000;
// A write that meets \`d\` missing makes a fresh folder there: the swapper clears it and goes on.
const into = (from, to) => {
  try {
    fs.renameSync(from, to);
  } catch {
    fs.rmSync(to, { recursive: true, force: true });
    fs.renameSync(from, to);
  }
};
let swaps = 0;
let errors = 0;
fs.writeFileSync("started", "");
while (Date.now() < end && !fs.existsSync("stop")) {
  try {
    into("d", "t");
    into("l", "d");
    into("t", "l");
    swaps += 1;
  } catch {
    errors += 1;
  }
}
if (fs.lstatSync("d").isSymbolicLink()) { into("d", "t"); into("l", "d"); into("t", "l"); }
console.log("swaps " + swaps + " errors " + errors);
`;

/** A race folder (`d`, a real folder with `files`; `l`, a symlink to `target`), handed to the user. */
function raceFolder(user: SandboxUser, folder: string, target: string, files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) put(path.join(folder, "d", name), text);
  symlinkSync(target, path.join(folder, "l"));
  put(path.join(folder, "swap.js"), SWAPPER);
  giveTo(user, folder);
}

/** Starts the swapper in the sandbox on `viewFolder` (as commands see it) and waits until it runs. */
async function startSwapper(run: SandboxRun, viewFolder: string, hostFolder: string) {
  const result = run.bash(`node ${path.join(viewFolder, "swap.js")} ${viewFolder}`, {
    timeoutMs: (SECONDS + 30) * 1000,
  });
  let ended: string | undefined;
  void result.then((output) => {
    ended = output.text;
  });
  const deadline = Date.now() + 15_000;
  while (!existsSync(path.join(hostFolder, "started")) && ended === undefined && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 20));
  expect(ended).toBeUndefined();
  expect(existsSync(path.join(hostFolder, "started"))).toBe(true);
  return {
    async stop(): Promise<number> {
      put(path.join(hostFolder, "stop"), "");
      const output = await result;
      const swaps = Number(/swaps (\d+)/.exec(output.text)?.[1] ?? "0");
      return swaps;
    },
  };
}

/** What is in a folder that must stay untouched: names, contents, modes, times. */
function snapshot(folder: string): string {
  return readdirSync(folder)
    .sort()
    .map((name) => {
      const file = path.join(folder, name);
      const info = lstatSync(file);
      const content = info.isFile() ? readFileSync(file, "utf8") : "";
      return `${name} ${info.mode} ${info.mtimeMs} ${info.ino} ${content}`;
    })
    .join("\n");
}

const read = createReadTool();
const write = createWriteTool();
const edit = createEditTool();
const ls = createLsTool();
const grep = createGrepTool();

for (const user of sandboxUsers()) {
  describe.skipIf(user.unavailable !== undefined)(
    `file tools racing a swapping command ${user.title}`,
    () => {
      const sandboxRun = useSandboxRun(user);

      /** Reads `given` until the count or time runs out; counts what came back. */
      async function readLoop(context: ToolContext, given: string, secret: string) {
        const seen = { decoy: 0, other: 0, leaked: [] as string[] };
        const started = Date.now();
        for (let call = 0; goOn(call, CALLS, started, () => seen.decoy > 0 && seen.other > 0); call += 1) {
          const text = textOf(await read.execute({ path: given }, context));
          if (text.includes(secret)) seen.leaked.push(text);
          else if (text.includes("decoy")) seen.decoy += 1;
          else seen.other += 1;
        }
        return seen;
      }

      it("ls and grep never list or search ~/.ssh through the swapped folder", async () => {
        const run = sandboxRun();
        put(path.join(run.world.home, ".ssh", "secret_name"), "PRIVATE KEY\n");
        const folder = path.join(run.world.project, "race");
        raceFolder(user, folder, path.join(run.world.home, ".ssh"), { decoy_name: "decoy\n" });
        const context = { cwd: run.world.project, sandbox: run.sandbox };
        const swapper = await startSwapper(run, folder, folder);
        const outputs: string[] = [];
        const started = Date.now();
        const seenDecoy = () => outputs.some((text) => text.includes("decoy"));
        for (let call = 0; goOn(call, CALLS / 3, started, seenDecoy); call += 1) {
          outputs.push(textOf(await ls.execute({ path: "race/d" }, context)));
          outputs.push(textOf(await grep.execute({ pattern: "KEY|decoy", path: "race" }, context)));
        }
        const swaps = await swapper.stop();
        expect(outputs.filter((text) => text.includes("secret_name") || text.includes("PRIVATE"))).toEqual(
          [],
        );
        expect(swaps).toBeGreaterThan(100);
        expect(outputs.some((text) => text.includes("decoy"))).toBe(true);
      });

      it("read never returns ~/.ssh's key, whichever way the folder points (workspace-write)", async () => {
        const run = sandboxRun();
        const folder = path.join(run.world.project, "race");
        raceFolder(user, folder, path.join(run.world.home, ".ssh"), { id_ed25519: "decoy\n" });
        const swapper = await startSwapper(run, folder, folder);
        const seen = await readLoop(
          { cwd: run.world.project, sandbox: run.sandbox },
          "race/d/id_ed25519",
          "PRIVATE KEY",
        );
        const swaps = await swapper.stop();
        expect(seen.leaked).toEqual([]);
        // The race was run: the folder swapped, and the tools met it both ways.
        expect(swaps).toBeGreaterThan(100);
        expect(seen.decoy).toBeGreaterThan(0);
        expect(seen.other).toBeGreaterThan(0);
      });

      it("read never returns ~/.ssh's key through the private /tmp (read-only)", async () => {
        const run = sandboxRun({ mode: "read-only" });
        const hostFolder = path.join(run.sandbox.policy.tmp.host, "race");
        const viewFolder = path.join(run.sandbox.policy.tmp.view, "race");
        mkdirSync(hostFolder);
        raceFolder(user, hostFolder, path.join(run.world.home, ".ssh"), { id_ed25519: "decoy\n" });
        const swapper = await startSwapper(run, viewFolder, hostFolder);
        const context = { cwd: run.world.project, sandbox: run.sandbox };
        const seen = await readLoop(context, path.join(viewFolder, "d", "id_ed25519"), "PRIVATE KEY");
        const swaps = await swapper.stop();
        expect(seen.leaked).toEqual([]);
        expect(swaps).toBeGreaterThan(100);
        expect(seen.decoy).toBeGreaterThan(0);
        expect(seen.other).toBeGreaterThan(0);
      });

      it("write and edit never change or create anything in a folder outside the writable ones", async () => {
        const run = sandboxRun();
        const outside = run.world.outside;
        put(path.join(outside, "note.txt"), "keep\nwritten\n");
        const before = snapshot(outside);
        const outsideFolder = statSync(outside);
        const folder = path.join(run.world.project, "race");
        raceFolder(user, folder, outside, { "note.txt": "decoy\nwritten\n" });
        const context = { cwd: run.world.project, sandbox: run.sandbox };
        const swapper = await startSwapper(run, folder, folder);
        let done = 0;
        let refused = 0;
        const started = Date.now();
        for (let call = 0; goOn(call, CALLS / 3, started, () => done > 0 && refused > 0); call += 1) {
          const outputs = [
            await write.execute({ path: "race/d/note.txt", content: "decoy\nwritten\n" }, context),
            await edit.execute(
              { path: "race/d/note.txt", old_string: "written", new_string: "edited" },
              context,
            ),
            await write.execute({ path: "race/d/authorized_keys", content: "ssh-ed25519 ATTACK\n" }, context),
            await write.execute({ path: "race/d/sub/new.txt", content: "new\n" }, context),
          ];
          for (const output of outputs) {
            if (output.isError) refused += 1;
            else done += 1;
          }
        }
        const swaps = await swapper.stop();
        expect(snapshot(outside)).toBe(before);
        expect(statSync(outside).mtimeMs).toBe(outsideFolder.mtimeMs);
        expect(swaps).toBeGreaterThan(100);
        expect(done).toBeGreaterThan(0);
        expect(refused).toBeGreaterThan(0);
        // What was written landed in the project's folder.
        expect(readFileSync(path.join(folder, "d", "authorized_keys"), "utf8")).toBe("ssh-ed25519 ATTACK\n");
      });
    },
  );
}
