import { frontMatterList, frontMatterText, parseFrontMatter } from "../config/parse-front-matter.js";

/**
 * A custom agent the `task` tool can run: a Markdown file whose front matter names it and whose
 * body is its system prompt (Claude Code's `.claude/agents/*.md` shape).
 */
export interface AgentDefinition {
  name: string;
  description: string;
  /** Tool names it may use (compared ignoring case); undefined: every tool but `task`. */
  tools?: string[];
  /** "provider/model"; undefined: the parent's model. */
  model?: string;
  systemPrompt: string;
  /** The file it was read from. */
  file: string;
}

/** A broken agent file: the message names the file (and the line, when there is one). */
export class AgentDefinitionError extends Error {
  readonly file: string;
  constructor(file: string, problem: string, line?: number) {
    super(`agent file ${file}${line === undefined ? "" : ` line ${line}`}: ${problem}`);
    this.name = "AgentDefinitionError";
    this.file = file;
  }
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
/** Claude Code's model aliases, which mean "a model of the parent's provider": panto keeps the parent's. */
const INHERITED_MODELS = new Set(["inherit", "sonnet", "opus", "haiku"]);

/**
 * Reads one agent file's text. YAML front matter (the shared reader of commands and skills) holds
 * `name` and `description` (required), `tools` (a list, or names separated by commas) and `model`;
 * the body is the system prompt. Throws an AgentDefinitionError naming the file (and line) for
 * anything it cannot use.
 */
export async function parseAgentDefinition(text: string, file: string): Promise<AgentDefinition> {
  const parsed = await parseFrontMatter(text);
  if (!parsed.ok) throw new AgentDefinitionError(file, parsed.message, parsed.line);
  const { data } = parsed;
  if (Object.keys(data).length === 0)
    throw new AgentDefinitionError(file, "needs front matter (--- lines) with name and description", 1);
  const name = field(frontMatterText(data, "name"), file);
  if (name === undefined || !NAME.test(name))
    throw new AgentDefinitionError(file, "front matter needs `name:` (letters, digits, - _ .)");
  const description = field(frontMatterText(data, "description"), file);
  if (description === undefined || description === "")
    throw new AgentDefinitionError(file, "front matter needs `description:`");
  const systemPrompt = parsed.body.trim();
  if (systemPrompt === "") throw new AgentDefinitionError(file, "the body (its system prompt) is empty");
  const tools = field(frontMatterList(data, "tools"), file);
  const model = field(frontMatterText(data, "model"), file);
  return {
    name,
    description,
    ...(tools === undefined ? {} : { tools }),
    ...(model === undefined || INHERITED_MODELS.has(model) ? {} : { model: checkedModel(model, file) }),
    systemPrompt,
    file,
  };
}

function field<T>(value: T | Error, file: string): T {
  if (value instanceof Error) throw new AgentDefinitionError(file, value.message);
  return value;
}

function checkedModel(model: string, file: string): string {
  if (/^[^/\s]+\/\S+$/.test(model)) return model;
  throw new AgentDefinitionError(file, `\`model: ${model}\` must be provider/model (or inherit)`);
}
