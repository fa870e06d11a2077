import { frontMatterText, parseFrontMatter } from "../config/index.js";
import type { Skill, SkillProblem, SkillSource } from "./skill.js";

/** The Agent Skills standard's limits. */
const MAX_NAME = 64;
const MAX_DESCRIPTION = 1024;

/** A SKILL.md read: the skill and its instructions (the body), or the problem naming file, line and key. */
export type ParsedSkill =
  | { ok: true; skill: Skill; instructions: string }
  | { ok: false; problem: SkillProblem };

/**
 * Reads a SKILL.md's text: front matter `name` (default: the folder's name; one line of at most
 * 64 characters) and `description` (required, at most 1024), then the instructions. A plain
 * function of the text, so it can be fuzzed.
 */
export async function parseSkillFile(
  text: string,
  file: { path: string; folder: string; folderName: string; source: SkillSource },
): Promise<ParsedSkill> {
  const { path } = file;
  const parsed = await parseFrontMatter(text);
  if (!parsed.ok) return fail(path, parsed.message, parsed.line);
  const name = frontMatterText(parsed.data, "name") || file.folderName;
  if (name instanceof Error) return fail(path, name.message, keyLine(text, "name"));
  if (name.length > MAX_NAME || /[\r\n]/.test(name))
    return fail(path, `"name" must be one line of at most ${MAX_NAME} characters`, keyLine(text, "name"));
  const description = frontMatterText(parsed.data, "description");
  if (description instanceof Error) return fail(path, description.message, keyLine(text, "description"));
  if (description === undefined || description === "")
    return fail(
      path,
      'the front matter has no "description": the model could not tell when to use the skill',
    );
  if (description.length > MAX_DESCRIPTION)
    return fail(
      path,
      `"description" is ${description.length} characters; at most ${MAX_DESCRIPTION}`,
      keyLine(text, "description"),
    );
  return {
    ok: true,
    skill: { name, description, folder: file.folder, path, source: file.source },
    instructions: parsed.body.trim(),
  };
}

function fail(path: string, message: string, line?: number): ParsedSkill {
  return {
    ok: false,
    problem: {
      path,
      message: `${path}${line === undefined ? "" : `:${line}`}: ${message}; the skill is not loaded`,
    },
  };
}

function keyLine(text: string, key: string): number | undefined {
  const index = text.split(/\r?\n/).findIndex((line, number) => number > 0 && line.startsWith(`${key}:`));
  return index === -1 ? undefined : index + 1;
}
