import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { createSkillTool, loadSkills, parseSkillFile, skillsFolders } from "../../src/skills/index.js";
import { useTempDir } from "../support/use-temp-dir.js";

const tempDir = useTempDir("panto-skills-");

async function put(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text);
}

describe("skills", () => {
  it("are read from every folder, the first holding a name winning, sorted by name", async () => {
    const root = tempDir();
    const projectRoot = join(root, "p");
    const pantoHome = join(root, "home");
    await put(
      join(projectRoot, ".claude", "skills", "one", "SKILL.md"),
      "---\nname: pdf\ndescription: from claude\n---\nc",
    );
    await put(
      join(projectRoot, ".panto", "skills", "pdf", "SKILL.md"),
      "---\nname: pdf\ndescription: from panto\n---\np",
    );
    await put(join(pantoHome, "skills", "a-user", "SKILL.md"), "---\ndescription: mine\n---\nu");
    await put(join(projectRoot, ".agents", "skills", "notes", "README.md"), "not a skill");
    const loaded = await loadSkills(skillsFolders({ projectRoot, pantoHome }));
    expect(loaded.problems).toEqual([]);
    expect(loaded.skills.map((skill) => [skill.name, skill.description, skill.source])).toEqual([
      ["a-user", "mine", "user"],
      ["pdf", "from panto", "project"],
    ]);
  });

  it("a SKILL.md without a description, or with a name of several lines, is a problem naming it", async () => {
    const file = { path: "/s/x/SKILL.md", folder: "/s/x", folderName: "x", source: "project" as const };
    expect(await parseSkillFile("no front matter", file)).toMatchObject({
      ok: false,
      problem: { message: expect.stringContaining('/s/x/SKILL.md: the front matter has no "description"') },
    });
    expect(await parseSkillFile("---\nname: [a, b]\ndescription: d\n---\n", file)).toMatchObject({
      ok: true,
    });
    expect(await parseSkillFile("---\nname: {a: 1}\ndescription: d\n---\n", file)).toMatchObject({
      ok: false,
      problem: { message: '/s/x/SKILL.md:2: "name" must be text; the skill is not loaded' },
    });
  });

  it("the skill tool returns the instructions read again and the folder, and names the skills for an unknown one", async () => {
    const root = tempDir();
    const path = join(root, "deploy", "SKILL.md");
    await put(path, "---\ndescription: d\n---\nStep one.\n");
    const tool = createSkillTool([
      { name: "deploy", description: "d", folder: join(root, "deploy"), path, source: "user" },
    ]);
    await put(path, "---\ndescription: d\n---\nStep one, edited.\n");
    const loaded = await tool.execute({ name: "deploy" }, { cwd: root });
    expect(loaded.isError).toBe(false);
    expect(loaded.content[0]).toMatchObject({
      text: expect.stringContaining(`Its folder is ${join(root, "deploy")}`),
    });
    expect(loaded.content[0]).toMatchObject({ text: expect.stringMatching(/\n\nStep one, edited\.$/) });
    const unknown = await tool.execute({ name: "deplo" }, { cwd: root });
    expect(unknown).toEqual({
      isError: true,
      content: [{ type: "text", text: 'no skill named "deplo"; the skills are: deploy' }],
    });
  });
});
