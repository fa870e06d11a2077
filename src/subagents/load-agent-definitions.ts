import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describeFileError, loadDefinitionFolders } from "../config/load-definition-folders.js";
import { type AgentDefinition, AgentDefinitionError, parseAgentDefinition } from "./agent-definition.js";

/** The custom agents found, and the files that could not be used (each error names its file). */
export interface AgentDefinitions {
  agents: AgentDefinition[];
  errors: AgentDefinitionError[];
}

/**
 * The folders agents are read from, first wins on a name: the project's `.panto/agents` and
 * `.claude/agents`, then the user's `$PANTO_HOME/agents`.
 */
export function agentFolders(projectRoot: string, pantoHome: string): string[] {
  return [
    join(projectRoot, ".panto", "agents"),
    join(projectRoot, ".claude", "agents"),
    join(pantoHome, "agents"),
  ];
}

/**
 * Reads every `*.md` of `folders` (in name order; the agents come back sorted by name, so the list
 * is stable); the first folder defining a name wins, and a broken file never hides the rest.
 */
export async function loadAgentDefinitions(folders: readonly string[]): Promise<AgentDefinitions> {
  const { definitions, problems } = await loadDefinitionFolders<AgentDefinition, AgentDefinitionError>(
    folders,
    {
      entries: "markdown-files",
      noun: "agent",
      read: readAgent,
      isProblem: (read): read is AgentDefinitionError => read instanceof AgentDefinitionError,
      listingProblem: (problem) => new AgentDefinitionError(problem.path, problem.message),
    },
  );
  return { agents: definitions, errors: problems };
}

async function readAgent(file: string): Promise<AgentDefinition | AgentDefinitionError> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    return new AgentDefinitionError(file, `cannot read it (${describeFileError(error)})`);
  }
  try {
    return await parseAgentDefinition(text, file);
  } catch (error) {
    if (error instanceof AgentDefinitionError) return error;
    return new AgentDefinitionError(file, `cannot read it: ${(error as Error).message}`);
  }
}
