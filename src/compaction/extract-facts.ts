import type { Message, RestoredFact, ToolResultBlock, Turn } from "../core/index.js";

/** A concrete fact of the conversation a summary should keep: a path, a command or an error. */
export type Fact = RestoredFact;

/** Tools whose `path` argument names a file or folder the conversation touched. */
const PATH_TOOLS = new Set(["read", "write", "edit", "ls", "glob", "grep"]);

/** An error's excerpt: its first non-empty line, at most this many characters. */
export const ERROR_EXCERPT_CHARS = 200;

/**
 * The facts of `turns`, newest first, each once: the `path` argument of every read, write, edit,
 * ls, glob and grep call, every command bash ran, and the first line of every failed tool result
 * (capped at {@link ERROR_EXCERPT_CHARS}). Deterministic and model-free. The headline of every
 * `task` report (one line naming the child's session) comes first, so the caps never drop a
 * finished task before a path.
 */
export function extractFacts(turns: readonly Turn[]): Fact[] {
  const facts: Fact[] = [];
  const seen = new Set<string>();
  const messages = turns.flatMap((turn) => turn.messages);
  for (let index = messages.length - 1; index >= 0; index--) {
    const found = factsOf(messages[index] as Message);
    for (let at = found.length - 1; at >= 0; at--) {
      const fact = found[at] as Fact;
      const key = `${fact.kind}\u0000${fact.text}`;
      if (seen.has(key)) continue;
      seen.add(key);
      facts.push(fact);
    }
  }
  return [...facts.filter((fact) => fact.kind === "task"), ...facts.filter((fact) => fact.kind !== "task")];
}

/** One message's facts in the order they appear in it. */
function factsOf(message: Message): Fact[] {
  if (message.role === "user") return [];
  if (message.role === "tool")
    return message.content.flatMap((result): Fact[] => {
      if (result.toolName === "task") return taskFact(result);
      if (!result.isError) return [];
      const text = errorExcerpt(
        result.content.map((block) => (block.type === "text" ? block.text : "")).join("\n"),
      );
      return text === "" ? [] : [{ kind: "error" as const, text }];
    });
  return message.content.flatMap((block): Fact[] => {
    if (block.type !== "tool-call") return [];
    const { path, command } = block.arguments;
    if (block.name === "bash" && typeof command === "string" && command.trim() !== "")
      return [{ kind: "command", text: command.trim() }];
    if (PATH_TOOLS.has(block.name) && typeof path === "string" && path.trim() !== "")
      return [{ kind: "path", text: path.trim() }];
    return [];
  });
}

/** A task report's first line is its headline: `task NAME "LABEL" (session ID): gist`. */
function taskFact(result: ToolResultBlock): Fact[] {
  const first = result.content.find((block) => block.type === "text");
  const line = first?.type === "text" ? (first.text.split("\n")[0] ?? "").trim() : "";
  return line.startsWith("task ") ? [{ kind: "task", text: line }] : [];
}

function errorExcerpt(text: string): string {
  const line =
    text
      .split("\n")
      .find((candidate) => candidate.trim() !== "")
      ?.trim() ?? "";
  return line.length <= ERROR_EXCERPT_CHARS ? line : `${line.slice(0, ERROR_EXCERPT_CHARS - 1)}…`;
}
