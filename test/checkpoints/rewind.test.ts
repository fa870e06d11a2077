import { execSync } from "node:child_process";
import { chmod, readFile, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { applyRewind } from "../../src/checkpoints/apply-rewind.js";
import { prepareRewind, type RewindTarget } from "../../src/checkpoints/prepare-rewind.js";
import { RewindError } from "../../src/checkpoints/rewind-error.js";
import type { RewindScope } from "../../src/session/index.js";
import { type CheckpointFixture, recordedTurn, treeOf, useCheckpointFixture } from "./checkpoint-fixture.js";

const fixture = useCheckpointFixture();

/** The project's files (not its .git), with content hashes and permission bits. */
function projectTree(fixtureValue: CheckpointFixture) {
  return treeOf(fixtureValue.project, (path) => path === ".git");
}

async function rewind(
  value: CheckpointFixture,
  target: RewindTarget,
  scope: RewindScope = "both",
  options: { force?: boolean; dryRun?: boolean } = {},
) {
  const prepared = await prepareRewind({
    sessionPath: value.session.path,
    pantoHome: value.home,
    target,
    scope,
  });
  if (options.dryRun === true) return { prepared, entry: undefined };
  return await applyRewind(prepared, value.session, { pantoHome: value.home, force: options.force === true });
}

/** The four kinds of change of the issue: an edit, a sed -i through bash, an rm, a mkdir and touch. */
async function breakThings(value: CheckpointFixture): Promise<void> {
  const { project } = value;
  await recordedTurn(value, "edit the answer", "edit", { path: "src/app.ts" }, () =>
    writeFile(join(project, "src/app.ts"), "export const answer = 0;\n"),
  );
  await recordedTurn(value, "rename twice", "bash", { command: "sed -i ..." }, () => {
    execSync("sed -i 's/twice/thrice/' src/util.ts", { cwd: project });
  });
  await recordedTurn(value, "remove the script", "bash", { command: "rm run.sh" }, () => {
    execSync("rm run.sh", { cwd: project });
  });
  await recordedTurn(value, "make a folder", "bash", { command: "mkdir d && touch d/x" }, () => {
    execSync("mkdir d && touch d/x", { cwd: project });
  });
}

function texts(value: CheckpointFixture): string[] {
  return value.session
    .effectiveContext()
    .messages.flatMap((message) =>
      message.role === "user"
        ? message.content.flatMap((block) => (block.type === "text" ? [block.text] : []))
        : [],
    );
}

describe("rewinding code and conversation", () => {
  it("restores an edit, a sed -i, an rm and a mkdir to before the edit, byte for byte with modes", async () => {
    const value = fixture();
    await recordedTurn(value, "look around", "bash", { command: "ls" }, () => {});
    const before = await projectTree(value);
    await breakThings(value);
    expect(await projectTree(value)).not.toEqual(before);

    const report = await rewind(value, { turn: 2 });
    expect(await projectTree(value)).toEqual(before);
    expect(report.entry?.outcomes.map((item) => [item.path, item.outcome]).sort()).toEqual([
      ["d/x", "restored"],
      ["run.sh", "restored"],
      ["src/app.ts", "restored"],
      ["src/util.ts", "restored"],
    ]);
    expect(report.entry?.droppedTurns).toEqual([2, 3, 4, 5]);
    expect(texts(value)).toEqual(["look around"]);
  });

  it("puts back a private file's permission bits, whether a tool replaced it or bash removed it (issue 42)", async () => {
    const value = fixture();
    const { project } = value;
    await writeFile(join(project, "secret.env"), "TOKEN=1\n", { mode: 0o600 });
    await writeFile(join(project, "private.txt"), "mine\n", { mode: 0o600 });
    await chmod(join(project, "secret.env"), 0o600);
    await chmod(join(project, "private.txt"), 0o600);
    await recordedTurn(value, "look around", "bash", { command: "ls" }, () => {});
    const before = await projectTree(value);
    expect(before["secret.env"]).toMatch(/^600 /);
    // The write tool replaces the file (a new file under the umask: 644); bash removes the other.
    await recordedTurn(value, "rewrite the secret", "write", { path: "secret.env" }, async () => {
      await rm(join(project, "secret.env"));
      await writeFile(join(project, "secret.env"), "TOKEN=2\n", { mode: 0o644 });
    });
    await recordedTurn(value, "remove the private file", "bash", { command: "rm private.txt" }, () => {
      execSync("rm private.txt", { cwd: project });
    });
    expect((await stat(join(project, "secret.env"))).mode & 0o777).toBe(0o644);

    await rewind(value, { turn: 2 });
    expect(await projectTree(value)).toEqual(before);
    expect((await stat(join(project, "secret.env"))).mode & 0o777).toBe(0o600);
    expect((await stat(join(project, "private.txt"))).mode & 0o777).toBe(0o600);
  });

  it("rewinds the rewind: the files and the context from before it come back, earlier lines untouched", async () => {
    const value = fixture();
    await recordedTurn(value, "look around", "bash", { command: "ls" }, () => {});
    await breakThings(value);
    const broken = await projectTree(value);
    const contextBefore = value.session.effectiveContext();
    const fileBefore = await readFile(value.session.path, "utf8");

    await rewind(value, { turn: 2 });
    await rewind(value, { undo: true });
    expect(await projectTree(value)).toEqual(broken);
    expect(value.session.effectiveContext()).toEqual(contextBefore);
    const fileAfter = await readFile(value.session.path, "utf8");
    expect(fileAfter.startsWith(fileBefore)).toBe(true);
    // Two rewind entries were appended, nothing else.
    const added = fileAfter
      .slice(fileBefore.length)
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line).type);
    expect(added).toEqual(["rewind", "rewind"]);
  });

  it("leaves a file the user changed since alone, as a conflict, unless forced", async () => {
    const value = fixture();
    await recordedTurn(value, "look around", "bash", { command: "ls" }, () => {});
    await breakThings(value);
    await writeFile(join(value.project, "src/app.ts"), "// the user's own work\n");

    const report = await rewind(value, { turn: 2 });
    expect(report.entry?.outcomes.find((item) => item.path === "src/app.ts")).toMatchObject({
      outcome: "conflict",
    });
    expect(await readFile(join(value.project, "src/app.ts"), "utf8")).toBe("// the user's own work\n");
    expect(await readFile(join(value.project, "src/util.ts"), "utf8")).toContain("twice");

    // Undo that rewind, and rewind again with the user's confirmation: the user's text is stored first.
    await rewind(value, { undo: true });
    const forced = await rewind(value, { turn: 2 }, "both", { force: true });
    expect(forced.entry?.outcomes.find((item) => item.path === "src/app.ts")).toMatchObject({
      outcome: "overwritten",
    });
    expect(await readFile(join(value.project, "src/app.ts"), "utf8")).toBe("export const answer = 42;\n");
    await rewind(value, { undo: true });
    expect(await readFile(join(value.project, "src/app.ts"), "utf8")).toBe("// the user's own work\n");
  });

  it("rewinds only the conversation, or only the code, when asked", async () => {
    const value = fixture();
    await recordedTurn(value, "look around", "bash", { command: "ls" }, () => {});
    await breakThings(value);
    const broken = await projectTree(value);
    await rewind(value, { turn: 3 }, "conversation");
    expect(await projectTree(value)).toEqual(broken);
    expect(texts(value)).toEqual(["look around", "edit the answer"]);
    await rewind(value, { undo: true });
    await rewind(value, { turn: 3 }, "code");
    expect(texts(value)).toHaveLength(5);
    expect(await readFile(join(value.project, "src/util.ts"), "utf8")).toContain("twice");
    expect(await readFile(join(value.project, "src/app.ts"), "utf8")).toBe("export const answer = 0;\n");
  });

  it("refuses a code rewind across a failed checkpoint, saying so, and still rewinds the conversation", async () => {
    const value = fixture();
    await recordedTurn(value, "look around", "bash", { command: "ls" }, () => {});
    const path = process.env.PATH;
    process.env.PATH = join(value.project, "no-such-bin");
    try {
      await recordedTurn(value, "change", "bash", { command: "..." }, () => {
        execSync("echo changed > README.md", { cwd: value.project, env: { PATH: path } });
      });
    } finally {
      process.env.PATH = path;
    }
    const tree = await projectTree(value);
    const fileBefore = await readFile(value.session.path, "utf8");
    const error = await rewind(value, { turn: 2 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RewindError);
    expect((error as Error).message).toMatch(
      /checkpoints unavailable: .*git was not found.*conversation alone/,
    );
    expect(await projectTree(value)).toEqual(tree);
    expect(await readFile(value.session.path, "utf8")).toBe(fileBefore);
    await rewind(value, { turn: 2 }, "conversation");
    expect(texts(value)).toEqual(["look around"]);
  });

  it("prepares a dry run that writes nothing: not the workspace, not the session, not the store", async () => {
    const value = fixture();
    await recordedTurn(value, "look around", "bash", { command: "ls" }, () => {});
    await breakThings(value);
    await writeFile(join(value.project, "src/app.ts"), "// the user's own work\n");
    const tree = await projectTree(value);
    const home = await treeOf(value.home);
    const { prepared } = await rewind(value, { turn: 2 }, "both", { dryRun: true });
    expect(prepared.droppedTurns).toEqual([2, 3, 4, 5]);
    expect(prepared.code?.verdicts.map((verdict) => [verdict.file.path, verdict.action]).sort()).toEqual([
      ["d/x", "restore"],
      ["run.sh", "restore"],
      ["src/app.ts", "conflict"],
      ["src/util.ts", "restore"],
    ]);
    expect(await projectTree(value)).toEqual(tree);
    expect(await treeOf(value.home)).toEqual(home);
  });

  it("names turns that do not exist, and an undo with nothing to undo", async () => {
    const value = fixture();
    await recordedTurn(value, "only turn", "bash", { command: "ls" }, () => {});
    await expect(rewind(value, { turn: 5 })).rejects.toThrow(
      "there is no turn 5: the session has turns 1 to 1",
    );
    await expect(rewind(value, { undo: true })).rejects.toThrow("the session has no rewind to undo");
  });
});
