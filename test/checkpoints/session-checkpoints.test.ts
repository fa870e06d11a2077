import { execSync } from "node:child_process";
import { chmod, mkdir, rm, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { storeDirectory } from "../../src/checkpoints/checkpoint-store.js";
import { SessionCheckpoints } from "../../src/checkpoints/index.js";
import { blobOid, readLooseBlob } from "../../src/checkpoints/loose-object.js";
import type { CheckpointEntry } from "../../src/session/index.js";
import { git, recordedTurn, untouchedProof, useCheckpointFixture, writeFiles } from "./checkpoint-fixture.js";

const fixture = useCheckpointFixture();

function objectsOf(home: string, root: string): string {
  return join(storeDirectory(home, root), "git", "objects");
}

async function contentOf(home: string, root: string, oid: string): Promise<string | undefined> {
  return (await readLooseBlob(objectsOf(home, root), oid))?.toString("utf8");
}

function change(entry: CheckpointEntry | undefined, path: string) {
  return entry?.files.find((file) => file.path === path);
}

describe("checkpoints around tool calls", () => {
  it("stores a written file's content before and after, and its absence before a creation", async () => {
    const { project, home } = fixture();
    const edited = await recordedTurn(fixture(), "edit app", "edit", { path: "src/app.ts" }, () =>
      writeFile(join(project, "src/app.ts"), "export const answer = 43;\n"),
    );
    expect(edited).toMatchObject({ type: "checkpoint", tool: "edit", scope: "file", root: project });
    const file = change(edited, "src/app.ts");
    expect(await contentOf(home, project, file?.before?.oid ?? "")).toBe("export const answer = 42;\n");
    expect(await contentOf(home, project, file?.after?.oid ?? "")).toBe("export const answer = 43;\n");
    expect(file?.after).toMatchObject({ mode: "100644", size: 26 });

    const created = await recordedTurn(fixture(), "new file", "write", { path: "src/new.ts" }, () =>
      writeFile(join(project, "src/new.ts"), "new\n"),
    );
    expect(change(created, "src/new.ts")).toMatchObject({ before: null, after: { mode: "100644", size: 4 } });
  });

  it("records what a shell command changed, and nothing the user changed before it", async () => {
    const { project, home } = fixture();
    // The session's first snapshot records the workspace as it is.
    await recordedTurn(fixture(), "look", "bash", { command: "ls" }, () => {});
    // The user edits a file between turns: not the command's doing.
    await writeFile(join(project, "README.md"), "# demo, edited by the user\n");
    const entry = await recordedTurn(fixture(), "change things", "bash", { command: "..." }, () => {
      execSync("sed -i 's/42/41/' src/app.ts && rm src/util.ts && mkdir d && touch d/x && chmod 644 run.sh", {
        cwd: project,
      });
    });
    expect(entry?.scope).toBe("workspace");
    expect(entry?.files.map((file) => file.path).sort()).toEqual([
      "d/x",
      "run.sh",
      "src/app.ts",
      "src/util.ts",
    ]);
    expect(change(entry, "src/util.ts")?.after).toBeNull();
    expect(change(entry, "d/x")).toMatchObject({
      before: null,
      after: { oid: blobOid(Buffer.alloc(0)), size: 0 },
    });
    expect(change(entry, "run.sh")).toMatchObject({ before: { mode: "100755" }, after: { mode: "100644" } });
    const app = change(entry, "src/app.ts");
    // The content before came from the project's own repository and is now the store's own.
    expect(await contentOf(home, project, app?.before?.oid ?? "")).toBe("export const answer = 42;\n");
    expect(await contentOf(home, project, app?.after?.oid ?? "")).toBe("export const answer = 41;\n");
    expect(app?.before?.size).toBe(26);
  });

  it("lists what it cannot cover: ignored files the command touched, files over the size cap, nested repositories", async () => {
    const { project, session, home } = fixture();
    const recorder = new SessionCheckpoints({
      session,
      pantoHome: home,
      cwd: project,
      limits: { maxFileBytes: 1000 },
    });
    await mkdir(join(project, "vendor/lib"), { recursive: true });
    git(join(project, "vendor/lib"), "init", "-q");
    await writeFiles(project, { "vendor/lib/code.c": "int x;\n", "old.log": "old\n" });
    const anHourAgo = new Date(Date.now() - 3_600_000);
    await utimes(join(project, "old.log"), anHourAgo, anHourAgo);
    const entry = await recordedTurn({ ...fixture(), recorder }, "build", "bash", { command: "..." }, () =>
      writeFiles(project, {
        "debug.log": "noise\n",
        "build/out.bin": "bin",
        "big.dat": 5000,
        "vendor/lib/new.c": "y",
      }),
    );
    expect(entry?.files).toEqual([]);
    expect(entry?.uncovered).toEqual(
      expect.arrayContaining([
        { path: "debug.log", reason: "ignored" },
        { path: "build/", reason: "ignored" },
        { path: "big.dat", reason: "too-large" },
        { path: "vendor/lib/", reason: "nested-repository" },
      ]),
    );
    // An ignored file the command did not touch is not reported.
    expect(entry?.uncovered.map((item) => item.path)).not.toContain("old.log");
  });

  it("never writes the project's repository: its .git is byte- and time-identical after many checkpoints", async () => {
    const { project } = fixture();
    await writeFile(join(project, "untracked.txt"), "work in progress\n");
    const before = await untouchedProof(join(project, ".git"));
    for (let round = 0; round < 3; round++) {
      await recordedTurn(fixture(), `round ${round}`, "bash", { command: "..." }, () =>
        writeFiles(project, { [`gen/${round}.txt`]: `round ${round}\n`, "src/app.ts": `// ${round}\n` }),
      );
      await recordedTurn(fixture(), `edit ${round}`, "edit", { path: "README.md" }, () =>
        writeFile(join(project, "README.md"), `# round ${round}\n`),
      );
    }
    expect(await untouchedProof(join(project, ".git"))).toEqual(before);
    expect(git(project, "status", "--porcelain")).toContain("?? untracked.txt");
  });

  it("records a failed snapshot with its reason, and file checkpoints still work without git", async () => {
    const { project } = fixture();
    const path = process.env.PATH;
    process.env.PATH = join(project, "no-such-bin");
    try {
      const shell = await recordedTurn(fixture(), "run", "bash", { command: "true" }, () => {});
      expect(shell?.error).toMatch(/git was not found/);
      const edit = await recordedTurn(fixture(), "edit", "edit", { path: "README.md" }, () =>
        writeFile(join(project, "README.md"), "# changed\n"),
      );
      expect(edit?.error).toBeUndefined();
      expect(edit?.files.map((file) => file.path)).toEqual(["README.md"]);
    } finally {
      process.env.PATH = path;
    }
  });

  it("writes no checkpoint for read tools, and one for every other call that ran, changes or not", async () => {
    expect(await recordedTurn(fixture(), "read", "read", { path: "README.md" }, () => {})).toBeUndefined();
    const idle = await recordedTurn(fixture(), "ls", "bash", { command: "ls" }, () => {});
    expect(idle).toMatchObject({ type: "checkpoint", files: [], uncovered: [] });
  });

  it("records modes and symbolic links as git does", async () => {
    const { project, home } = fixture();
    await recordedTurn(fixture(), "look", "bash", { command: "ls" }, () => {});
    const entry = await recordedTurn(fixture(), "link", "bash", { command: "..." }, async () => {
      execSync("ln -s src/app.ts link.ts", { cwd: project });
      await chmod(join(project, "README.md"), 0o755);
      await rm(join(project, "run.sh"));
    });
    expect(change(entry, "link.ts")?.after).toMatchObject({ mode: "120000" });
    expect(await contentOf(home, project, change(entry, "link.ts")?.after?.oid ?? "")).toBe("src/app.ts");
    expect(change(entry, "README.md")).toMatchObject({
      before: { mode: "100644" },
      after: { mode: "100755" },
    });
    expect(await contentOf(home, project, change(entry, "run.sh")?.before?.oid ?? "")).toBe(
      "#!/bin/sh\necho run\n",
    );
  });
});

describe("checkpoints in a workspace without git", () => {
  const plain = useCheckpointFixture({ git: false });

  it("snapshots the project folder: what a command changed, before and after", async () => {
    const { project, home } = plain();
    await recordedTurn(plain(), "look", "bash", { command: "ls" }, () => {});
    const entry = await recordedTurn(plain(), "change", "bash", { command: "..." }, () => {
      execSync("echo second >> notes.txt && rm data/a.txt", { cwd: project });
    });
    expect(entry?.root).toBe(project);
    expect(await contentOf(home, project, change(entry, "notes.txt")?.before?.oid ?? "")).toBe("first\n");
    expect(await contentOf(home, project, change(entry, "notes.txt")?.after?.oid ?? "")).toBe(
      "first\nsecond\n",
    );
    expect(change(entry, "data/a.txt")?.after).toBeNull();
  });
});
