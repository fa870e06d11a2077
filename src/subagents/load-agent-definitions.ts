import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
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

/** Reads every `*.md` of `folders` (sorted by name, so the list is stable); a broken file never hides the rest. */
export async function loadAgentDefinitions(folders: readonly string[]): Promise<AgentDefinitions> {
  const agents: AgentDefinition[] = [];
  const errors: AgentDefinitionError[] = [];
  for (const folder of folders) {
    for (const name of await markdownFiles(folder)) {
      const file = join(folder, name);
      try {
        const agent = await parseAgentDefinition(await readFile(file, "utf8"), file);
        if (!agents.some((known) => known.name === agent.name)) agents.push(agent);
      } catch (error) {
        errors.push(
          error instanceof AgentDefinitionError
            ? error
            : new AgentDefinitionError(file, `cannot read it: ${(error as Error).message}`),
        );
      }
    }
  }
  return { agents, errors };
}

async function markdownFiles(folder: string): Promise<string[]> {
  try {
    return (await readdir(folder)).filter((name) => name.endsWith(".md")).sort();
  } catch {
    return [];
  }
}
