import type { Skill } from "./skill.js";

/**
 * The system prompt's list of skills: each one's name and description, in the order given (sorted
 * by name by loadSkills, so the prompt's cacheable prefix holds from run to run). Empty without skills.
 */
export function skillsPromptSection(skills: readonly Skill[]): string {
  if (skills.length === 0) return "";
  return [
    "# Skills",
    "",
    "Skills are folders of instructions for particular kinds of task. Only their names and descriptions are listed here. When a task matches a skill's description, call the skill tool with its name before you start and follow the instructions it returns; read the other files in the skill's folder with the read tool when those instructions point to them. A skill loaded earlier in the conversation may have been summarised away: load it again when you need its exact instructions.",
    "",
    ...skills.map((skill) => `- ${skill.name}: ${oneLine(skill.description)}`),
  ].join("\n");
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
