import { randomBytes } from "node:crypto";

const PREFIX = "gemini_call_";

/**
 * The longest id any wire panto speaks accepts (OpenAI Chat Completions caps `tool_calls[].id` at
 * 40 characters), so a session that moves to another model mid-way can send these ids there too.
 */
const MAX_LENGTH = 40;

/**
 * A tag for one answer's synthetic ids: 12 random hex digits, drawn afresh for every answer, so
 * the ids of one session never repeat (across answers, and across processes resuming the session).
 */
export function syntheticAnswerTag(): string {
  return randomBytes(6).toString("hex");
}

/**
 * Gemini usually returns function calls without ids. Ours are `gemini_call_<answer tag>_<index in
 * the answer>_<name>`: unique within the session (clearing, `recall` and compaction name a result
 * by its call id, and skip an id that occurs twice), distinct within the answer by the index, only
 * `[a-zA-Z0-9_-]` (the name is made to fit, and cut short to keep the id within 40 characters) so
 * every other wire accepts them, and recognisable by the prefix so they are never sent back as if
 * the API had issued them (results are matched by name and order instead). Ids recorded before
 * the tag (`gemini_call_<index>_<name>`) carry the same prefix and are treated the same way.
 */
export function syntheticCallId(answerTag: string, index: number, name: string): string {
  const head = `${PREFIX}${answerTag}_${index}`;
  const room = Math.max(0, MAX_LENGTH - head.length - 1);
  const tail = name.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, room);
  return tail === "" ? head : `${head}_${tail}`;
}

export function isSyntheticCallId(id: string): boolean {
  return id.startsWith(PREFIX);
}
