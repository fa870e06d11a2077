import { loadSkills, skillsFolders } from "../../skills/load-skills.js";
import type { Skill } from "../../skills/skill.js";

/**
 * The run's skills (project `.panto/skills/`, `.agents/skills/`, `.claude/skills/`, then the
 * user's), each broken SKILL.md a warning naming it.
 */
export async function loadRunSkills(
  paths: { projectRoot: string; pantoHome: string },
  onWarning: (message: string) => void,
): Promise<Skill[]> {
  const loaded = await loadSkills(skillsFolders(paths));
  for (const problem of loaded.problems) onWarning(problem.message);
  return loaded.skills;
}
