import { fileURLToPath } from "node:url";

/**
 * The handoff prompt shipped in the package (`assets/HANDOFF.md`): what a model is asked for when
 * it drafts a handoff. Two levels up works from `src/handoff/`, `dist/handoff/` and `dist/bin/`.
 */
export const HANDOFF_PROMPT_PATH = fileURLToPath(new URL("../../assets/HANDOFF.md", import.meta.url));
