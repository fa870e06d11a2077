import { readFile } from "node:fs/promises";
import path from "node:path";
import { ConfigError } from "./config-error.js";
import { describeReadFailure, readOptionalFile } from "./read-optional-file.js";

/** The file name of the compaction system prompt at every level. */
export const COMPACTION_PROMPT_FILE = "COMPACTION.md";

/** One candidate compaction prompt. Exactly one of `content` and `error` is set. */
export interface CompactionPromptLayer {
  source: "base" | "user" | "project";
  path: string;
  /** The file's text as read; "" for an empty file (the resolver decides that is an error). */
  content?: string;
  /** Why an existing file could not be read, as a ConfigError naming it. */
  error?: Error;
}

/**
 * The compaction prompt candidates in resolution order: the base prompt shipped with the package
 * (always), then `$PANTO_HOME/COMPACTION.md`, then `<project>/.panto/COMPACTION.md`, each override
 * only when it exists. Deciding which wins, and rejecting empty or failed layers, is the compaction
 * layer's job; this only does the I/O.
 */
export async function readCompactionPromptLayers(options: {
  pantoHome: string;
  projectRoot: string;
  basePath: string;
}): Promise<CompactionPromptLayer[]> {
  const userPath = path.join(options.pantoHome, COMPACTION_PROMPT_FILE);
  const projectPath = path.join(options.projectRoot, ".panto", COMPACTION_PROMPT_FILE);
  const layers = [await readBaseLayer(options.basePath)];
  const user = await readOverrideLayer("user", userPath);
  if (user !== undefined) layers.push(user);
  // The same file reached twice (project root whose .panto is PANTO_HOME) is one layer, not two.
  const project = projectPath === userPath ? undefined : await readOverrideLayer("project", projectPath);
  if (project !== undefined) layers.push(project);
  return layers;
}

async function readBaseLayer(basePath: string): Promise<CompactionPromptLayer> {
  try {
    return { source: "base", path: basePath, content: await readFile(basePath, "utf8") };
  } catch (error) {
    return { source: "base", path: basePath, error: readError(basePath, "base compaction prompt", error) };
  }
}

async function readOverrideLayer(
  source: "user" | "project",
  file: string,
): Promise<CompactionPromptLayer | undefined> {
  try {
    const content = await readOptionalFile(file);
    return content === undefined ? undefined : { source, path: file, content };
  } catch (error) {
    return { source, path: file, error: readError(file, `${source} compaction prompt override`, error) };
  }
}

function readError(file: string, what: string, cause: unknown): ConfigError {
  return new ConfigError(`${file}: cannot read the ${what}: ${describeReadFailure(cause)}`, { file, cause });
}
