/** Where a skill's folder was found; the first of these to hold a name wins. */
export type SkillSource = "project" | "agents" | "claude" | "user";

/** An Agent Skill: a folder whose SKILL.md holds its name, description and instructions. */
export interface Skill {
  /** Front matter `name` (else the folder's name): what the `skill` tool is called with. */
  name: string;
  /** Front matter `description`: what the model reads to decide when to use it. */
  description: string;
  /** The skill's folder, where its other files are. */
  folder: string;
  /** Its SKILL.md. */
  path: string;
  source: SkillSource;
}

/** A skill that could not be read: the message names the file (and line and key when known). */
export interface SkillProblem {
  path: string;
  message: string;
}

/** The file every skill folder holds. */
export const SKILL_FILE = "SKILL.md";
