import type { Tool, ToolOutput } from "../tools/index.js";
import { readSkillInstructions } from "./load-skills.js";
import type { Skill } from "./skill.js";

/** The tool's name: compaction looks for calls to it to name the skills a summary folded away. */
export const SKILL_TOOL_NAME = "skill";

/**
 * The `skill` tool: loads one skill's instructions (read again from its SKILL.md) and says where its
 * folder is, so the model reads the skill's other files with the normal tools on demand. It only
 * reads, so it runs without a question.
 */
export function createSkillTool(skills: readonly Skill[]): Tool {
  return {
    definition: {
      name: SKILL_TOOL_NAME,
      description:
        "Load a skill's instructions by its name (the skills are listed in the system prompt). Returns the instructions and the skill's folder; read other files in that folder with the read tool when the instructions mention them.",
      parameters: {
        type: "object",
        properties: { name: { type: "string", description: "The skill's name, as listed" } },
        required: ["name"],
        additionalProperties: false,
      },
    },
    kind: "read",
    execute: async (args) => loadSkill(skills, args.name),
  };
}

async function loadSkill(skills: readonly Skill[], name: unknown): Promise<ToolOutput> {
  if (typeof name !== "string" || name.trim() === "")
    return error(`skill needs "name": one of ${names(skills)}`);
  const skill = skills.find((candidate) => candidate.name === name.trim());
  if (skill === undefined) return error(`no skill named "${name}"; the skills are: ${names(skills)}`);
  try {
    const instructions = await readSkillInstructions(skill);
    return {
      content: [
        {
          type: "text",
          text: `Skill "${skill.name}" (${skill.path}). Its folder is ${skill.folder}; paths in these instructions are relative to it.\n\n${instructions}`,
        },
      ],
      isError: false,
    };
  } catch (cause) {
    return error(
      `skill "${skill.name}" could not be loaded: ${cause instanceof Error ? cause.message : String(cause)}`,
    );
  }
}

function names(skills: readonly Skill[]): string {
  return skills.map((skill) => skill.name).join(", ");
}

function error(text: string): ToolOutput {
  return { content: [{ type: "text", text }], isError: true };
}
