import { mkdir, mkdtemp, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type DefinitionProblem, loadDefinitionFolders } from "../../src/config/load-definition-folders.js";

interface Named {
  name: string;
  folder: number;
}

/** Reads `NAME.md` as a definition named NAME, or a problem when the file says "broken". */
async function load(folders: string[], entries: "markdown-files" | "subfolders" = "markdown-files") {
  const { readFile } = await import("node:fs/promises");
  return await loadDefinitionFolders<Named, DefinitionProblem>(folders, {
    entries,
    noun: "thing",
    read: async (path, folder) => {
      if (entries === "subfolders") return { name: path.split("/").at(-1) ?? "", folder };
      const text = await readFile(path, "utf8").catch(() => "unreadable");
      if (text !== "ok") return { path, message: `${path}: ${text}` };
      return { name: (path.split("/").at(-1) ?? "").replace(/\.md$/i, ""), folder };
    },
    isProblem: (read): read is DefinitionProblem => "message" in read,
    listingProblem: (problem) => problem,
  });
}

describe("loadDefinitionFolders", () => {
  it("lets the first folder win a name, loads the rest past a broken entry, and sorts by name", async () => {
    const root = await mkdtemp(join(tmpdir(), "panto-definitions-"));
    const project = join(root, "project");
    const user = join(root, "user");
    await mkdir(project);
    await mkdir(user);
    await writeFile(join(project, "review.md"), "ok");
    await writeFile(join(project, "Zeta.md"), "ok");
    await writeFile(join(project, "bad.md"), "broken");
    await writeFile(join(project, "notes.txt"), "ok");
    await writeFile(join(user, "review.md"), "ok");
    await writeFile(join(user, "alpha.MD"), "ok");
    const { definitions, problems } = await load([project, join(root, "absent"), user]);
    expect(definitions).toEqual([
      { name: "Zeta", folder: 0 },
      { name: "alpha", folder: 2 },
      { name: "review", folder: 0 },
    ]);
    expect(problems).toEqual([
      { path: join(project, "bad.md"), message: `${join(project, "bad.md")}: broken` },
    ]);
  });

  it("reports a folder that exists but cannot be listed, naming it, and still reads the others", async () => {
    const root = await mkdtemp(join(tmpdir(), "panto-definitions-"));
    const loop = join(root, "loop");
    await symlink(loop, loop);
    const good = join(root, "good");
    await mkdir(join(good, "skill-a"), { recursive: true });
    await writeFile(join(good, "file.md"), "ok");
    const { definitions, problems } = await load([loop, good], "subfolders");
    expect(definitions).toEqual([{ name: "skill-a", folder: 1 }]);
    expect(problems).toEqual([
      { path: loop, message: `${loop}: cannot be listed (ELOOP); no thing in it is loaded` },
    ]);
  });
});
