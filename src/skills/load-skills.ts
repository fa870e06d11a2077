import { readdir, readFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { parseSkillFile } from "./parse-skill-file.js";
import { SKILL_FILE, type Skill, type SkillProblem, type SkillSource } from "./skill.js";

/** A folder whose subfolders are skills. */
export interface SkillsFolder {
  path: string;
  source: SkillSource;
}

export interface LoadedSkills {
  /** Sorted by name, so the system prompt lists them in the same order every run. */
  skills: Skill[];
  problems: SkillProblem[];
}

/**
 * Where skills are found, the first holding a name winning: the project's `.panto/skills/`,
 * `.agents/skills/` and `.claude/skills/`, then `skills/` in the panto home folder.
 */
export function skillsFolders(paths: { projectRoot: string; pantoHome: string }): SkillsFolder[] {
  return [
    { path: join(paths.projectRoot, ".panto", "skills"), source: "project" },
    { path: join(paths.projectRoot, ".agents", "skills"), source: "agents" },
    { path: join(paths.projectRoot, ".claude", "skills"), source: "claude" },
    { path: join(paths.pantoHome, "skills"), source: "user" },
  ];
}

/**
 * Every skill: each subfolder holding a SKILL.md. A broken SKILL.md is a problem naming it, and
 * the other skills still load; a folder without one is not a skill and is passed over.
 */
export async function loadSkills(folders: readonly SkillsFolder[]): Promise<LoadedSkills> {
  const byName = new Map<string, Skill>();
  const problems: SkillProblem[] = [];
  for (const folder of folders) {
    for (const skillFolder of await subfolders(folder.path)) {
      const read = await readSkill(skillFolder, folder.source);
      if (read === undefined) continue;
      if ("message" in read) problems.push(read);
      else if (!byName.has(read.name)) byName.set(read.name, read);
    }
  }
  const skills = [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { skills, problems };
}

/** The skill in `folder`, its problem, or undefined when the folder holds no SKILL.md. */
async function readSkill(folder: string, source: SkillSource): Promise<Skill | SkillProblem | undefined> {
  const path = join(folder, SKILL_FILE);
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    return { path, message: `${path}: cannot be read (${code ?? String(error)}); the skill is not loaded` };
  }
  const parsed = await parseSkillFile(text, { path, folder, folderName: basename(folder), source });
  return parsed.ok ? parsed.skill : parsed.problem;
}

async function subfolders(folder: string): Promise<string[]> {
  try {
    const entries = await readdir(folder, { withFileTypes: true });
    return entries
      .filter((entry) => entry.isDirectory() || entry.isSymbolicLink())
      .map((entry) => join(folder, entry.name))
      .sort();
  } catch {
    return [];
  }
}

/** A loaded skill's instructions, read again from its SKILL.md (so an edit shows at once). */
export async function readSkillInstructions(skill: Skill): Promise<string> {
  const text = await readFile(skill.path, "utf8");
  const parsed = await parseSkillFile(text, {
    path: skill.path,
    folder: skill.folder,
    folderName: basename(skill.folder),
    source: skill.source,
  });
  if (!parsed.ok) throw new Error(parsed.problem.message);
  return parsed.instructions;
}
