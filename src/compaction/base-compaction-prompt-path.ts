import { fileURLToPath } from "node:url";

/**
 * The base COMPACTION.md shipped in the package (`assets/` at its root). Two levels up works from
 * both `src/compaction/` and `dist/compaction/`. Reading it is the caller's job.
 */
export const BASE_COMPACTION_PROMPT_PATH = fileURLToPath(
  new URL("../../assets/COMPACTION.md", import.meta.url),
);
