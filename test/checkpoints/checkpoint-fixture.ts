import { execFileSync, execSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  readlink,
  realpath,
  rm,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach } from "vitest";
import { SessionCheckpoints } from "../../src/checkpoints/index.js";
import type { ToolCallBlock, ToolResultBlock } from "../../src/core/index.js";
import { type CheckpointEntry, openSession, type Session } from "../../src/session/index.js";
import type { Tool } from "../../src/tools/index.js";

/** A workspace, a PANTO_HOME and an open session whose tool calls are checkpointed. */
export interface CheckpointFixture {
  root: string;
  project: string;
  home: string;
  session: Session;
  recorder: SessionCheckpoints;
}

const GIT_IDENTITY = ["-c", "user.name=Test", "-c", "user.email=test@example.com"];

/** Runs git in `cwd` (the project's own, as a user would). */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", [...GIT_IDENTITY, ...args], { cwd, encoding: "utf8" });
}

/** Writes files (path → content; a number is a size of filler bytes). */
export async function writeFiles(root: string, files: Record<string, string | number>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(join(root, path, ".."), { recursive: true });
    await writeFile(join(root, path), typeof content === "number" ? Buffer.alloc(content, 97) : content);
  }
}

/** A git project with committed files and ignore rules, as a user's repository would be. */
export async function makeGitProject(project: string): Promise<void> {
  await mkdir(project, { recursive: true });
  git(project, "init", "-q", "-b", "main");
  await writeFiles(project, {
    ".gitignore": "*.log\nbuild/\n",
    "src/app.ts": "export const answer = 42;\n",
    "src/util.ts": "export function twice(n: number) {\n  return n * 2;\n}\n",
    "run.sh": "#!/bin/sh\necho run\n",
    "README.md": "# demo\n",
  });
  execSync("chmod 755 run.sh", { cwd: project });
  git(project, "add", "-A");
  git(project, "commit", "-q", "-m", "initial");
}

/** Registers hooks that give each test a fresh fixture (a git project unless `git: false`). */
export function useCheckpointFixture(options: { git?: boolean } = {}): () => CheckpointFixture {
  let fixture: CheckpointFixture | undefined;
  beforeEach(async () => {
    const root = await realpath(await mkdtemp(join(tmpdir(), "panto-checkpoints-")));
    const project = join(root, "project");
    const home = join(root, "home");
    await mkdir(home);
    if (options.git === false) {
      await mkdir(join(project, ".panto"), { recursive: true });
      await writeFiles(project, { "notes.txt": "first\n", "data/a.txt": "a\n" });
    } else await makeGitProject(project);
    const session = await openSession(join(home, "s.jsonl"), { cwd: project, onWarning: () => {} });
    const recorder = new SessionCheckpoints({ session, pantoHome: home, cwd: project });
    fixture = { root, project, home, session, recorder };
  });
  afterEach(async () => {
    await fixture?.session.close();
    if (fixture !== undefined) await rm(fixture.root, { recursive: true, force: true });
    fixture = undefined;
  });
  return () => {
    if (fixture === undefined) throw new Error("fixture used outside a test");
    return fixture;
  };
}

const TOOLS: Record<string, Tool> = {
  bash: { kind: "exec", definition: { name: "bash", description: "", parameters: {} }, execute: unusedTool },
  write: {
    kind: "write",
    definition: { name: "write", description: "", parameters: {} },
    execute: unusedTool,
  },
  edit: { kind: "write", definition: { name: "edit", description: "", parameters: {} }, execute: unusedTool },
  read: { kind: "read", definition: { name: "read", description: "", parameters: {} }, execute: unusedTool },
};

function unusedTool(): never {
  throw new Error("the fixture runs the change itself");
}

let callNumber = 0;

/**
 * One turn in the session: the prompt, an answer calling `tool`, the change made between the
 * recorder's before and after (as the tool would), and the result. Returns the checkpoint entry.
 */
export async function recordedTurn(
  fixture: CheckpointFixture,
  prompt: string,
  tool: "bash" | "write" | "edit" | "read",
  args: Record<string, unknown>,
  change: () => Promise<void> | void,
): Promise<CheckpointEntry | undefined> {
  const { session, recorder, project } = fixture;
  await session.appendMessage({ role: "user", content: [{ type: "text", text: prompt }] });
  const call: ToolCallBlock = { type: "tool-call", id: `call_${++callNumber}`, name: tool, arguments: args };
  await session.appendMessage({
    role: "assistant",
    content: [call],
    provider: "anthropic",
    api: "anthropic-messages",
    model: "claude-test",
    stopReason: "tool-use",
  });
  const token = await recorder.before(call, TOOLS[tool] as Tool, project);
  await change();
  const result: ToolResultBlock = {
    type: "tool-result",
    toolCallId: call.id,
    toolName: tool,
    content: [{ type: "text", text: "done" }],
    isError: false,
  };
  const entry = await recorder.after(token, result);
  await session.appendMessage({ role: "tool", content: [result] });
  await session.appendMessage({
    role: "assistant",
    content: [{ type: "text", text: "ok" }],
    provider: "anthropic",
    api: "anthropic-messages",
    model: "claude-test",
    stopReason: "stop",
  });
  return entry;
}

/** Every file under `dir` (links as their targets), with content and permission bits: a tree to compare. */
export async function treeOf(
  dir: string,
  skip: (path: string) => boolean = () => false,
): Promise<Record<string, string>> {
  const tree: Record<string, string> = {};
  const walk = async (folder: string, prefix: string): Promise<void> => {
    for (const name of (await readdir(folder)).sort()) {
      const path = prefix === "" ? name : `${prefix}/${name}`;
      if (skip(path)) continue;
      const absolute = join(folder, name);
      const info = await lstat(absolute);
      if (info.isDirectory()) {
        tree[`${path}/`] = (info.mode & 0o777).toString(8);
        await walk(absolute, path);
      } else if (info.isSymbolicLink()) tree[path] = `link -> ${await readlink(absolute)}`;
      else {
        const hash = createHash("sha256")
          .update(await readFile(absolute))
          .digest("hex");
        tree[path] = `${(info.mode & 0o777).toString(8)} ${hash}`;
      }
    }
  };
  await walk(dir, "");
  return tree;
}

/** Every file under `dir` with its modification time too: proof nothing was written there. */
export async function untouchedProof(dir: string): Promise<Record<string, string>> {
  const tree = await treeOf(dir);
  for (const path of Object.keys(tree)) {
    const info = await lstat(join(dir, path));
    tree[path] = `${tree[path]} ${info.mtimeMs} ${info.ctimeMs}`;
  }
  return tree;
}
