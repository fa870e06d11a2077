import type { Skill } from "../../skills/index.js";

/** The text of `/skills`: each skill's name, description and SKILL.md, in the system prompt's order. */
export function describeSkills(skills: readonly Skill[]): string {
  if (skills.length === 0)
    return "No skills. A skill is a folder with a SKILL.md (front matter name and description, then instructions) in .panto/skills/, .agents/skills/ or .claude/skills/ of the project, or skills/ in the panto home folder.";
  const lines = [
    `${skills.length === 1 ? "1 skill" : `${skills.length} skills`} (the model sees each name and description, and loads one with the skill tool):`,
  ];
  for (const skill of skills)
    lines.push(`  ${skill.name}: ${skill.description.replace(/\s+/g, " ")}`, `    ${skill.path}`);
  return lines.join("\n");
}
