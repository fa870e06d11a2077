import { execFileSync } from "node:child_process";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { FakeServer, FakeToolCall } from "../../src/simulator/fake-provider-types.js";
import { startFakeAnthropicServer } from "../../src/simulator/index.js";
import { treeOf } from "../checkpoints/checkpoint-fixture.js";
import { jsonLines, makeSandbox, runPanto, type Sandbox } from "./panto-process.js";

/** A sandbox with a project, a fake Anthropic server, and one session file driven through the built CLI. */
export interface RewindProject {
  box: Sandbox;
  server: FakeServer;
  session: string;
  env: NodeJS.ProcessEnv;
}

const GIT = ["-c", "user.name=Test", "-c", "user.email=test@example.com"];

/** The project's files: a source file, a helper, an executable script, ignore rules. */
export async function writeProjectFiles(project: string): Promise<void> {
  await mkdir(join(project, "src"), { recursive: true });
  await writeFile(join(project, ".gitignore"), "*.log\nbuild/\n");
  await writeFile(join(project, "src/app.ts"), "export const answer = 42;\n");
  await writeFile(join(project, "src/util.ts"), "export function twice(n: number) {\n  return n * 2;\n}\n");
  await writeFile(join(project, "run.sh"), "#!/bin/sh\necho run\n");
  await chmod(join(project, "run.sh"), 0o755);
}

/**
 * A sandbox whose project is a real git repository with committed files (or, with `git: false`, a
 * plain folder marked by `.panto/`), a fake server that checks tool pairing, and a session path.
 */
export async function rewindProject(options: { git?: boolean } = {}): Promise<RewindProject> {
  const box = await makeSandbox();
  await execFileSync("rm", ["-rf", join(box.project, ".git")]);
  await writeProjectFiles(box.project);
  if (options.git === false) await mkdir(join(box.project, ".panto"), { recursive: true });
  else {
    execFileSync("git", [...GIT, "init", "-q", "-b", "main"], { cwd: box.project });
    execFileSync("git", [...GIT, "add", "-A"], { cwd: box.project });
    execFileSync("git", [...GIT, "commit", "-q", "-m", "initial"], { cwd: box.project });
  }
  const server = await startFakeAnthropicServer({ requirePairing: true });
  const env = { ...box.env, ANTHROPIC_API_KEY: "sk-ant-test-rewind", ANTHROPIC_BASE_URL: server.url };
  return { box, server, session: join(box.home, "work.jsonl"), env };
}

/** One prompt through the built CLI: the scripted tool rounds, then a closing answer. */
export async function turn(project: RewindProject, prompt: string, rounds: FakeToolCall[][] = []) {
  project.server.enqueue(...rounds.map((calls) => ({ type: "tool-calls" as const, calls })), {
    type: "text",
    text: `done: ${prompt}`,
  });
  const run = await runPanto(
    ["--json", "--allow-tools", "-m", "anthropic/claude-test", "--session", project.session, "-p", prompt],
    { cwd: project.box.project, env: project.env },
  );
  if (run.code !== 0) throw new Error(`panto -p ${prompt} exited ${run.code}: ${run.stderr}`);
  return jsonLines(run.stdout);
}

/** `panto rewind SESSION ...args` through the built CLI. */
export function rewind(project: RewindProject, ...args: string[]) {
  return runPanto(["rewind", project.session, ...args], { cwd: project.box.project, env: project.env });
}

export function bash(command: string, id?: string): FakeToolCall {
  return { ...(id === undefined ? {} : { id }), name: "bash", arguments: { command } };
}

/** The project's files (its .git left out) with contents and modes. */
export function projectTree(project: RewindProject) {
  return treeOf(project.box.project, (path) => path === ".git" || path === ".panto");
}

export async function sessionText(project: RewindProject): Promise<string> {
  return await readFile(project.session, "utf8");
}

/** The user prompts the last model request carried, in order. */
export function promptsSent(project: RewindProject): string[] {
  const body = project.server.requests.at(-1)?.body as {
    messages?: Array<{ role: string; content: unknown }>;
  };
  return (body.messages ?? [])
    .filter((message) => message.role === "user")
    .flatMap((message) =>
      typeof message.content === "string"
        ? [message.content]
        : (message.content as Array<{ type: string; text?: string }>)
            .filter((block) => block.type === "text")
            .map((block) => block.text ?? ""),
    );
}
