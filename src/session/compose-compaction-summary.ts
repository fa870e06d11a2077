import type { RestoredFact } from "../core/index.js";

/** The fixed heading restored facts are listed under, after the summary. */
export const RESTORED_FACTS_HEADING =
  "## Facts the summary left out (restored verbatim from the summarised turns)";

/** The fixed heading the skills loaded before the compaction are listed under. */
export const LOADED_SKILLS_HEADING =
  "## Skills loaded earlier (their instructions were summarised away: call the skill tool again before relying on one)";

/** The fixed heading pinned notes are listed under, last in the compaction block. */
export const PINNED_NOTES_HEADING = "## Pinned notes (from the user, verbatim; always in force)";

/** The block's opening when pinned notes exist but nothing has been summarised yet. */
export const NO_SUMMARY_YET = "Nothing has been summarised yet; the whole conversation follows verbatim.";

/**
 * The text of the compaction block the model sees: the summary, then the restored facts, the skills
 * loaded earlier, then the pinned notes, each section under its fixed heading and left out when empty. With neither, the
 * text is the summary unchanged. Byte-stable for the same inputs, so the block stays cacheable
 * until a pin changes or a compaction replaces it.
 */
export function composeCompactionSummary(parts: {
  summary: string;
  restored?: readonly RestoredFact[];
  skills?: readonly string[];
  pins?: readonly string[];
}): string {
  const sections = [parts.summary.trim() === "" ? NO_SUMMARY_YET : parts.summary];
  const restored = parts.restored ?? [];
  if (restored.length > 0)
    sections.push(
      `${RESTORED_FACTS_HEADING}\n${restored.map((fact) => `- ${fact.kind}: ${fact.text}`).join("\n")}`,
    );
  const skills = parts.skills ?? [];
  if (skills.length > 0)
    sections.push(`${LOADED_SKILLS_HEADING}\n${skills.map((name) => `- ${name}`).join("\n")}`);
  const pins = parts.pins ?? [];
  if (pins.length > 0)
    sections.push(`${PINNED_NOTES_HEADING}\n${pins.map((pin, index) => `${index + 1}. ${pin}`).join("\n")}`);
  return sections.join("\n\n");
}
