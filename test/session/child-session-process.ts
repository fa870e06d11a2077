import { type ChildProcess, spawn } from "node:child_process";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const sourceRoot = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "src");

/**
 * Compiles src/core and src/session to plain ESM JavaScript under `outDir`, so a child `node`
 * process can run the real session store (Node 20 cannot run TypeScript by itself).
 */
export async function compileSessionModule(outDir: string): Promise<string> {
  for (const folder of ["core", "session"]) {
    await mkdir(join(outDir, folder), { recursive: true });
    for (const name of await readdir(join(sourceRoot, folder))) {
      if (!name.endsWith(".ts")) continue;
      const source = await readFile(join(sourceRoot, folder, name), "utf8");
      const output = ts.transpileModule(source, {
        compilerOptions: {
          module: ts.ModuleKind.ESNext,
          target: ts.ScriptTarget.ES2022,
          verbatimModuleSyntax: true,
        },
      });
      await writeFile(join(outDir, folder, name.replace(/\.ts$/, ".js")), output.outputText);
    }
  }
  await writeFile(join(outDir, "package.json"), '{ "type": "module" }\n');
  const script = join(outDir, "hold-session.js");
  await writeFile(
    script,
    `import { openSession } from "./session/index.js";
const [path, mode] = process.argv.slice(2);
const session = await openSession(path, { cwd: process.cwd(), onWarning: () => {} });
await session.appendMessage({ role: "user", content: [{ type: "text", text: "from child " + process.pid }] });
if (mode === "exit") process.exit(0);
process.stdout.write("ready\\n");
setInterval(() => {}, 60_000);
`,
  );
  await writeFile(join(outDir, "race-session.js"), RACE_SCRIPT);
  await writeFile(join(outDir, "leave-draft.js"), LEAVE_DRAFT_SCRIPT);
  return script;
}

/**
 * A child that takes orders on stdin, one a line: `open PATH TAG` tries to open PATH and, when it
 * gets the session, appends APPENDS messages "TAG n" and answers `won TAG`, else `refused TAG
 * MESSAGE`; `close` closes the session it holds and answers `closed`.
 */
const RACE_SCRIPT = `import { createInterface } from "node:readline";
import { openSession } from "./session/index.js";
const APPENDS = 20;
let session;
const say = (line) => process.stdout.write(line + "\\n");
for await (const line of createInterface({ input: process.stdin })) {
  const [command, path, tag] = line.split(" ");
  if (command === "close") {
    await session?.close();
    session = undefined;
    say("closed");
    continue;
  }
  try {
    session = await openSession(path, { cwd: process.cwd(), onWarning: () => {} });
  } catch (error) {
    say("refused " + tag + " " + JSON.stringify(error.message));
    continue;
  }
  for (let n = 0; n < APPENDS; n++) {
    await session.appendMessage({ role: "user", content: [{ type: "text", text: tag + " " + n }] });
  }
  say("won " + tag);
}
`;

/** A child that writes a lock draft for `PATH.lock` the way taking a lock does, then waits to be killed. */
const LEAVE_DRAFT_SCRIPT = `import { writeFile } from "node:fs/promises";
import { draftPath } from "./session/lock-drafts.js";
const [path] = process.argv.slice(2);
const draft = draftPath(path + ".lock", "draft");
await writeFile(draft, JSON.stringify({ pid: process.pid }), { mode: 0o600 });
process.stdout.write(draft + "\\n");
setInterval(() => {}, 60_000);
`;

/** Starts a child holding `sessionPath` open and resolves once it says it holds the lock. */
export async function startHolder(script: string, sessionPath: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [script, sessionPath], { stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr?.on("data", (data: Buffer) => {
    stderr += data.toString();
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on("data", (data: Buffer) => {
      if (data.toString().includes("ready")) resolve();
    });
    child.on("exit", (code) => reject(new Error(`holder exited early with ${code}: ${stderr}`)));
  });
  return child;
}

/** Runs the child to completion (mode "exit": open, append, exit without close()). */
export async function runChildToExit(script: string, sessionPath: string): Promise<number | null> {
  const child = spawn(process.execPath, [script, sessionPath, "exit"], { stdio: "ignore" });
  return await new Promise((resolve) => child.on("exit", (code) => resolve(code)));
}

/** Kills the child with `signal` and waits until it is gone (and reaped). */
export async function killAndWait(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  child.kill(signal);
  await exited;
}
