import { execSync } from "node:child_process";
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { treeOf } from "../checkpoints/checkpoint-fixture.js";
import { jsonLines, runPanto } from "./panto-process.js";
import {
  bash,
  projectTree,
  promptsSent,
  type RewindProject,
  rewind,
  rewindProject,
  sessionText,
  turn,
} from "./rewind-project.js";

let current: RewindProject | undefined;
afterEach(async () => {
  await current?.server.close();
  current = undefined;
});

async function project(options: { git?: boolean } = {}): Promise<RewindProject> {
  current = await rewindProject(options);
  return current;
}

/** Turn 1 looks; turns 2-4 make the four kinds of change: an edit, a sed -i, an rm, a mkdir. */
async function breakThings(value: RewindProject): Promise<void> {
  await turn(value, "look around");
  const edit = { name: "edit", arguments: { path: "src/app.ts", old_string: "42", new_string: "0" } };
  await turn(value, "edit the answer", [[edit]]);
  await turn(value, "rename twice", [[bash("sed -i 's/twice/thrice/' src/util.ts")]]);
  await turn(value, "clean up", [[bash("rm run.sh")], [bash("mkdir d && touch d/x")]]);
}

function rewindEvent(stdout: string) {
  const events = jsonLines(stdout);
  expect(events.map((event) => event.type)).toEqual(["rewind"]);
  return events[0] as unknown as Record<string, unknown> & { files: Array<Record<string, unknown>> };
}

describe("panto rewind (built CLI, fake provider)", { timeout: 120_000 }, () => {
  it("restores an edit, a sed -i through bash, an rm and a mkdir to before the edit, byte for byte with modes", async () => {
    const value = await project();
    await turn(value, "look around");
    const before = await projectTree(value);
    const edit = { name: "edit", arguments: { path: "src/app.ts", old_string: "42", new_string: "0" } };
    const edited = await turn(value, "edit the answer", [[edit]]);
    expect(edited.find((event) => event.type === "checkpoint")).toMatchObject({
      tool: "edit",
      files: [{ path: "src/app.ts", change: "modified" }],
    });
    await turn(value, "rename twice", [[bash("sed -i 's/twice/thrice/' src/util.ts")]]);
    await turn(value, "clean up", [[bash("rm run.sh")], [bash("mkdir d && touch d/x")]]);
    expect(await projectTree(value)).not.toEqual(before);

    const run = await rewind(value, "--to", "2", "--json");
    expect(run.code, run.stderr).toBe(0);
    const event = rewindEvent(run.stdout);
    expect(event).toMatchObject({ turn: 2, scope: "both", dry_run: false, dropped_turns: [2, 3, 4] });
    expect(event.files.map((file) => [file.path, file.outcome, file.change])).toEqual([
      ["d/x", "restored", "delete"],
      ["run.sh", "restored", "create"],
      ["src/app.ts", "restored", "modify"],
      ["src/util.ts", "restored", "modify"],
    ]);
    expect(await projectTree(value)).toEqual(before);

    await turn(value, "what now");
    expect(promptsSent(value)).toEqual(["look around", "what now"]);
  });

  it("reports ignored, oversized and nested-repository files as skipped and leaves them alone", async () => {
    const value = await project();
    await mkdir(join(value.box.project, ".panto"), { recursive: true });
    await writeFile(
      join(value.box.project, ".panto/config.json"),
      JSON.stringify({ checkpoint_max_file_bytes: 1000 }),
    );
    await mkdir(join(value.box.project, "vendor/lib"), { recursive: true });
    execSync("git init -q && echo 'int x;' > code.c", { cwd: join(value.box.project, "vendor/lib") });
    await turn(value, "look around");
    const command =
      "echo noise > debug.log && head -c 5000 /dev/zero > big.bin && echo '// y' >> vendor/lib/code.c && echo '// ok' >> src/app.ts";
    await turn(value, "build", [[bash(command)]]);
    const run = await rewind(value, "--to", "2", "--json");
    expect(run.code, run.stderr).toBe(0);
    const files = rewindEvent(run.stdout).files;
    expect(files.find((file) => file.path === "src/app.ts")).toMatchObject({ outcome: "restored" });
    for (const [path, reason] of [
      ["debug.log", "ignored"],
      ["big.bin", "size cap"],
      ["vendor/lib/", "nested repository"],
    ] as const) {
      const file = files.find((candidate) => candidate.path === path);
      expect(file, path).toMatchObject({ outcome: "skipped" });
      expect(String(file?.reason)).toContain(reason);
    }
    expect(await readFile(join(value.box.project, "debug.log"), "utf8")).toBe("noise\n");
    expect((await readFile(join(value.box.project, "big.bin"))).length).toBe(5000);
    expect(await readFile(join(value.box.project, "vendor/lib/code.c"), "utf8")).toBe("int x;\n// y\n");
  });

  it("leaves a file the user changed meanwhile alone, as a conflict", async () => {
    const value = await project();
    await turn(value, "look around");
    await turn(value, "change it", [
      [bash("echo '// model' >> src/app.ts && echo '// model' >> src/util.ts")],
    ]);
    await writeFile(join(value.box.project, "src/app.ts"), "// the user's own work\n");
    const run = await rewind(value, "--to", "2", "--json");
    expect(run.code, run.stderr).toBe(0);
    const files = rewindEvent(run.stdout).files;
    expect(files.find((file) => file.path === "src/app.ts")).toMatchObject({ outcome: "conflict" });
    expect(files.find((file) => file.path === "src/util.ts")).toMatchObject({ outcome: "restored" });
    expect(await readFile(join(value.box.project, "src/app.ts"), "utf8")).toBe("// the user's own work\n");
    const text = await rewind(value, "--undo");
    expect(text.stdout).toContain("Rewound to just before the latest rewind");
  });

  it("rewinds, then rewinds the rewind: the files and context from before it, every earlier line byte-identical", async () => {
    const value = await project();
    await breakThings(value);
    const broken = await projectTree(value);
    const linesBefore = await sessionText(value);
    expect((await rewind(value, "--to", "2")).code).toBe(0);
    const back = await rewind(value, "--undo", "--json");
    expect(back.code, back.stderr).toBe(0);
    expect(rewindEvent(back.stdout)).toMatchObject({
      undo: true,
      restored_turns: [2, 3, 4],
      dropped_turns: [],
    });
    expect(await projectTree(value)).toEqual(broken);
    const linesAfter = await sessionText(value);
    expect(linesAfter.startsWith(linesBefore)).toBe(true);
    const added = linesAfter.slice(linesBefore.length).trimEnd().split("\n");
    expect(added.map((line) => (JSON.parse(line) as { type: string }).type)).toEqual(["rewind", "rewind"]);
    await turn(value, "and now");
    expect(promptsSent(value)).toEqual([
      "look around",
      "edit the answer",
      "rename twice",
      "clean up",
      "and now",
    ]);
  });

  it("rewinds past a compaction: the next request carries the turns before the point verbatim, no summary", async () => {
    const value = await project();
    await mkdir(join(value.box.project, ".panto"), { recursive: true });
    await writeFile(
      join(value.box.project, ".panto/config.json"),
      JSON.stringify({ keep_verbatim_tokens: 0 }),
    );
    await turn(value, "first question");
    await turn(value, "second question", [[bash("echo '// 2' >> src/app.ts")]]);
    value.server.enqueue({ type: "text", text: "SUMMARY OF EVERYTHING" });
    const compacted = await runPanto(
      ["--json", "-m", "anthropic/claude-test", "--session", value.session, "-p", "/compact"],
      { cwd: value.box.project, env: value.env },
    );
    expect(compacted.code, compacted.stderr).toBe(0);
    await turn(value, "third question");
    expect(JSON.stringify(value.server.requests.at(-1)?.body)).toContain("SUMMARY OF EVERYTHING");
    const run = await rewind(value, "--to", "2", "--json");
    expect(run.code, run.stderr).toBe(0);
    expect(rewindEvent(run.stdout)).toMatchObject({ dropped_turns: [2, 3] });
    await turn(value, "fourth question");
    expect(promptsSent(value)).toEqual(["first question", "fourth question"]);
    expect(JSON.stringify(value.server.requests.at(-1)?.body)).not.toContain("SUMMARY OF EVERYTHING");
    expect(await readFile(join(value.box.project, "src/app.ts"), "utf8")).toBe("export const answer = 42;\n");
  });

  it("works in a workspace that is not a git repository", async () => {
    const value = await project({ git: false });
    await turn(value, "look around");
    const before = await projectTree(value);
    await turn(value, "change", [
      [bash("echo more >> src/app.ts && rm src/util.ts && mkdir -p out && echo x > out/new.txt")],
    ]);
    const run = await rewind(value, "--to", "2");
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("Rewound to before turn 2.");
    expect(await projectTree(value)).toEqual(before);
  });

  it("after a snapshot failure, refuses to touch the files, says so and offers the conversation alone", async () => {
    const value = await project();
    await turn(value, "look around");
    await turn(value, "first change", [[bash("echo '// 1' >> src/app.ts")]]);
    // The project's checkpoint store becomes unusable mid-session: a file where its folder must be
    // (the checkpoints folder itself stays, so the run starts and only the snapshot fails).
    const stores = await readdir(join(value.box.home, "checkpoints"));
    expect(stores).toHaveLength(1);
    const store = String(stores[0]);
    await rm(join(value.box.home, "checkpoints", store), { recursive: true, force: true });
    await writeFile(join(value.box.home, "checkpoints", store), "not a folder\n");
    const failed = await turn(value, "second change", [[bash("echo '// 2' >> src/util.ts")]]);
    expect(String(failed.find((event) => event.type === "checkpoint")?.error)).toContain("checkpoint store");
    const tree = await projectTree(value);
    const lines = await sessionText(value);
    const refused = await rewind(value, "--to", "2");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("checkpoints unavailable");
    expect(refused.stderr).toContain("--conversation");
    expect(await projectTree(value)).toEqual(tree);
    expect(await sessionText(value)).toBe(lines);
    const conversation = await rewind(value, "--to", "2", "--conversation");
    expect(conversation.code, conversation.stderr).toBe(0);
    expect(await projectTree(value)).toEqual(tree);
    await turn(value, "again");
    expect(promptsSent(value)).toEqual(["look around", "again"]);
  });

  it("--dry-run --json shows what would change and leaves the session, the workspace and panto's home byte-identical", async () => {
    const value = await project();
    await breakThings(value);
    await writeFile(join(value.box.project, "src/util.ts"), "// the user's own work\n");
    const tree = await projectTree(value);
    const home = await treeOf(value.box.home, (path) => path.endsWith(".lock"));
    const run = await rewind(value, "--to", "2", "--dry-run", "--json");
    expect(run.code, run.stderr).toBe(0);
    const event = rewindEvent(run.stdout);
    expect(event).toMatchObject({ dry_run: true, dropped_turns: [2, 3, 4] });
    expect(event.files.map((file) => [file.path, file.outcome])).toEqual([
      ["d/x", "restored"],
      ["run.sh", "restored"],
      ["src/app.ts", "restored"],
      ["src/util.ts", "conflict"],
    ]);
    expect(await projectTree(value)).toEqual(tree);
    expect(await treeOf(value.box.home, (path) => path.endsWith(".lock"))).toEqual(home);
  });

  it("names a turn that does not exist, and lists the turns without --to when there is no terminal", async () => {
    const value = await project();
    await turn(value, "only turn");
    const missing = await rewind(value, "--to", "9");
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("there is no turn 9: the session has turns 1 to 1");
    const list = await rewind(value);
    expect(list.code).toBe(2);
    expect(list.stderr).toContain('"only turn"');
    expect(list.stderr).toContain("--to TURN");
  });
});

describe("forks (built CLI, fake provider)", { timeout: 120_000 }, () => {
  it("a fork at turn N is accepted by a provider that checks pairing, leaves the parent unchanged, and panto sessions shows its lineage", async () => {
    const value = await project();
    await turn(value, "turn one", [[bash("echo 1 > one.txt", "toolu_one")]]);
    await turn(value, "turn two", [[bash("echo 2 > two.txt", "toolu_two")], [bash("true", "toolu_three")]]);
    await turn(value, "turn three", [[bash("echo 3 > three.txt")]]);
    const parent = await sessionText(value);
    value.server.enqueue({ type: "text", text: "forked answer" });
    const run = await runPanto(
      ["--json", "-m", "anthropic/claude-test", "--fork", `${value.session}@2`, "-p", "in the fork"],
      { cwd: value.box.project, env: value.env },
    );
    expect(run.code, run.stderr).toBe(0);
    const fork = jsonLines(run.stdout).find((event) => event.type === "fork");
    expect(fork).toMatchObject({ parent_path: value.session, turn: 2 });
    expect(promptsSent(value)).toEqual(["turn one", "turn two", "in the fork"]);
    expect(await sessionText(value)).toBe(parent);
    const header = JSON.parse((await readFile(String(fork?.path), "utf8")).split("\n")[0] ?? "");
    expect(header.parent).toMatchObject({ path: value.session, relation: "fork", turn: 2 });
    const parentId = JSON.parse(parent.split("\n")[0] ?? "").id as string;
    const listed = await runPanto(["sessions"], { cwd: value.box.project, env: value.env });
    expect(listed.code, listed.stderr).toBe(0);
    const forkLine = listed.stdout.split("\n").find((line) => line.startsWith(String(header.id).slice(0, 8)));
    expect(forkLine).toContain(`↳ fork of ${parentId.slice(0, 8)} at turn 2: turn one`);
  });
});

describe("panto sessions rm (built CLI)", { timeout: 120_000 }, () => {
  it("deletes a session and frees the checkpoint objects only it used", async () => {
    const value = await project();
    await turn(value, "write a lot", [[bash("head -c 20000 /dev/urandom > blob.bin")]]);
    const id = JSON.parse((await sessionText(value)).split("\n")[0] ?? "").id as string;
    const run = await runPanto(["sessions", "rm", value.session], { cwd: value.box.project, env: value.env });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`Removed session ${id.slice(0, 8)}`);
    expect(run.stdout).toMatch(/freed \d+ checkpoint objects/);
    await expect(readFile(value.session)).rejects.toThrow();
    expect(await readFile(join(value.box.project, "blob.bin"))).toHaveLength(20000);
  });
});
