type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The block types each role may hold. */
const BLOCKS_BY_ROLE = new Map<string, ReadonlySet<string>>([
  ["user", new Set(["text", "image"])],
  ["assistant", new Set(["text", "thinking", "tool-call"])],
  ["tool", new Set(["tool-result"])],
]);
const USER_BLOCKS = BLOCKS_BY_ROLE.get("user") as ReadonlySet<string>;

/** The text fields each block type must carry, and the optional ones that must be text when present. */
const TEXT_FIELDS: Readonly<Record<string, { required: readonly string[]; optional: readonly string[] }>> = {
  text: { required: ["text"], optional: [] },
  // In the file an image names its stored copy (`file`); `data` is there only in files from before.
  image: { required: ["mediaType"], optional: ["data", "file", "name"] },
  thinking: { required: ["text"], optional: ["signature", "redacted"] },
  "tool-call": { required: ["id", "name"], optional: [] },
  "tool-result": { required: ["toolCallId", "toolName"], optional: [] },
};

function blockProblem(block: JsonObject, allowed: ReadonlySet<string>): string | undefined {
  const type = String(block.type);
  if (!allowed.has(type)) return `a ${type} block`;
  // `allowed` holds only the types listed in TEXT_FIELDS, so this never reads Object.prototype.
  const fields = TEXT_FIELDS[type] ?? { required: [], optional: [] };
  for (const key of fields.required)
    if (typeof block[key] !== "string") return `a ${type} block whose ${key} is not text`;
  for (const key of fields.optional)
    if (block[key] !== undefined && typeof block[key] !== "string")
      return `a ${type} block whose ${key} is not text`;
  if (type === "tool-call" && !isObject(block.arguments))
    return "a tool-call block whose arguments are not an object";
  if (type === "tool-result") return toolResultProblem(block);
  if (type === "image" && block.data === undefined && block.file === undefined)
    return "an image block with neither data nor file";
  return undefined;
}

function toolResultProblem(block: JsonObject): string | undefined {
  if (typeof block.isError !== "boolean") return "a tool-result block whose isError is not true or false";
  if (!Array.isArray(block.content)) return "a tool-result block whose content is not a list";
  for (const inner of block.content) {
    if (!isObject(inner)) return "a tool-result block holding something that is not a block";
    const problem = blockProblem(inner, USER_BLOCKS);
    if (problem !== undefined) return `a tool-result block holding ${problem}`;
  }
  return undefined;
}

/**
 * What is wrong with a message as read from a session file, or undefined when it is a message
 * panto can send: a known role, a list of the blocks that role may hold, each with the fields its
 * type promises. Everything downstream (replay's pairing, the adapters, the estimator, the
 * transcript) relies on these without checking again, so a hand-edited or damaged entry is reported
 * here, by line, rather than failing every later request of the session.
 */
export function messageProblem(value: unknown): string | undefined {
  if (!isObject(value)) return "message is not an object";
  // A Map, not an object: a role "constructor" must not find Object.prototype's.
  const allowed = typeof value.role === "string" ? BLOCKS_BY_ROLE.get(value.role) : undefined;
  if (allowed === undefined) return "message has no known role";
  if (!Array.isArray(value.content)) return "message content is not a list";
  for (const [index, block] of value.content.entries()) {
    if (!isObject(block) || typeof block.type !== "string") return `content item ${index + 1} is not a block`;
    const problem = blockProblem(block, allowed);
    if (problem !== undefined) return `content item ${index + 1} is ${problem}`;
  }
  return undefined;
}
