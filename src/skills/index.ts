export { createSkillTool, SKILL_TOOL_NAME } from "./create-skill-tool.js";
export {
  type LoadedSkills,
  loadSkills,
  readSkillInstructions,
  type SkillsFolder,
  skillsFolders,
} from "./load-skills.js";
export { type ParsedSkill, parseSkillFile } from "./parse-skill-file.js";
export { SKILL_FILE, type Skill, type SkillProblem, type SkillSource } from "./skill.js";
export { skillsPromptSection } from "./skills-prompt-section.js";
