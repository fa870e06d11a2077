import type { CompactionRecord, Turn } from "../core/index.js";

/** The name of the tool that loads a skill (src/skills), whose calls this reads. */
export const SKILL_TOOL = "skill";
/** At most this many skill names are carried in a compaction block. */
export const MAX_CARRIED_SKILLS = 32;

/**
 * The names of the skills loaded in `turns`, in the order first loaded: calls to the `skill` tool
 * whose result came back without an error.
 */
export function skillsLoadedIn(turns: readonly Turn[]): string[] {
  const failed = new Set<string>();
  const calls: Array<{ id: string; name: string }> = [];
  for (const message of turns.flatMap((turn) => turn.messages))
    for (const block of message.content) {
      if (block.type === "tool-call" && block.name === SKILL_TOOL && typeof block.arguments.name === "string")
        calls.push({ id: block.id, name: block.arguments.name.trim() });
      if (block.type === "tool-result" && block.toolName === SKILL_TOOL && block.isError)
        failed.add(block.toolCallId);
    }
  const names = calls.filter((call) => !failed.has(call.id) && call.name !== "").map((call) => call.name);
  return [...new Set(names)];
}

/**
 * The record naming the skills in use before this compaction: those the compaction it replaces
 * named (`earlier`), then those loaded in the summarised turns, at most MAX_CARRIED_SKILLS (the
 * newest kept). Their instructions are gone from the context, so the block names them and the model
 * can load one again with one tool call. Costs no model call; absent when there are none.
 */
export function withLoadedSkills(
  record: CompactionRecord,
  summarised: readonly Turn[],
  earlier: readonly string[] = [],
): CompactionRecord {
  const loaded = skillsLoadedIn(summarised);
  const names = [...new Set([...earlier.filter((name) => !loaded.includes(name)), ...loaded])];
  if (names.length === 0) return record;
  return { ...record, skills: names.slice(-MAX_CARRIED_SKILLS) };
}
