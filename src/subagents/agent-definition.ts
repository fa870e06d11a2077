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
const KEYS = new Set(["name", "description", "tools", "model", "color"]);
/** Claude Code's model aliases, which mean "a model of the parent's provider": panto keeps the parent's. */
const INHERITED_MODELS = new Set(["inherit", "sonnet", "opus", "haiku"]);

/**
 * Reads one agent file's text. Front matter between `---` lines holds `name` and `description`
 * (required), `tools` (comma-separated or a YAML list) and `model`; the body is the system prompt.
 * Throws an AgentDefinitionError naming the file and line for anything it cannot use.
 */
export function parseAgentDefinition(text: string, file: string): AgentDefinition {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  if (lines[0]?.trim() !== "---")
    throw new AgentDefinitionError(file, "must start with a --- front matter line", 1);
  const end = lines.findIndex((line, index) => index > 0 && line.trim() === "---");
  if (end < 0) throw new AgentDefinitionError(file, "the front matter has no closing --- line");
  const fields = readFields(lines.slice(1, end), file);
  const name = fields.get("name");
  if (typeof name !== "string" || !NAME.test(name))
    throw new AgentDefinitionError(file, "front matter needs `name:` (letters, digits, - _ .)");
  const description = fields.get("description");
  if (typeof description !== "string" || description === "")
    throw new AgentDefinitionError(file, "front matter needs `description:`");
  const systemPrompt = lines
    .slice(end + 1)
    .join("\n")
    .trim();
  if (systemPrompt === "") throw new AgentDefinitionError(file, "the body (its system prompt) is empty");
  const tools = fields.get("tools");
  const model = fields.get("model");
  if (Array.isArray(model)) throw new AgentDefinitionError(file, "`model:` must be one provider/model");
  return {
    name,
    description,
    ...(tools === undefined ? {} : { tools: typeof tools === "string" ? splitList(tools) : tools }),
    ...(model === undefined || INHERITED_MODELS.has(model) ? {} : { model: checkedModel(model, file) }),
    systemPrompt,
    file,
  };
}

function checkedModel(model: string, file: string): string {
  if (/^[^/\s]+\/\S+$/.test(model)) return model;
  throw new AgentDefinitionError(file, `\`model: ${model}\` must be provider/model (or inherit)`);
}

/** `key: value` lines, and `- item` lines under a key with no value (a YAML list). */
function readFields(lines: string[], file: string): Map<string, string | string[]> {
  const fields = new Map<string, string | string[]>();
  let listKey: string | undefined;
  lines.forEach((line, index) => {
    if (line.trim() === "" || line.trim().startsWith("#")) return;
    const item = /^\s+-\s*(.*)$/.exec(line);
    if (item !== undefined && item !== null && listKey !== undefined) {
      const list = fields.get(listKey);
      if (Array.isArray(list)) list.push(unquote(item[1] ?? ""));
      return;
    }
    const match = /^([A-Za-z_-]+):\s*(.*)$/.exec(line);
    if (match === null) throw new AgentDefinitionError(file, `cannot read "${line.trim()}"`, index + 2);
    const key = match[1] as string;
    if (!KEYS.has(key))
      throw new AgentDefinitionError(
        file,
        `unknown key "${key}" (use name, description, tools, model)`,
        index + 2,
      );
    const value = unquote(match[2] ?? "");
    listKey = value === "" ? key : undefined;
    fields.set(key, value === "" ? [] : value.startsWith("[") ? splitList(value.slice(1, -1)) : value);
  });
  return fields;
}

function splitList(text: string): string[] {
  return text
    .split(",")
    .map((part) => unquote(part))
    .filter((part) => part !== "");
}

function unquote(text: string): string {
  const trimmed = text.trim();
  return /^(["']).*\1$/.test(trimmed) ? trimmed.slice(1, -1) : trimmed;
}
