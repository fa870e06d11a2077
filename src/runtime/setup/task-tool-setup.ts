import type { TaskEnvironment } from "../../subagents/index.js";
import { agentFolders, loadAgentDefinitions } from "../../subagents/load-agent-definitions.js";
import { createTaskTool } from "../../subagents/task-tool.js";
import type { Tool } from "../../tools/index.js";

/**
 * The run's `task` tool, with the custom agents of the project (`.panto/agents`, `.claude/agents`)
 * and the user (`$PANTO_HOME/agents`). A broken agent file is a warning naming it; the rest load,
 * and calling the broken one answers with the same error.
 */
export async function taskTool(
  environment: TaskEnvironment,
  places: { projectRoot: string; pantoHome: string },
  maxParallel: number | undefined,
  onWarning: (message: string) => void,
): Promise<Tool> {
  const definitions = await loadAgentDefinitions(agentFolders(places.projectRoot, places.pantoHome));
  for (const error of definitions.errors) onWarning(`${error.message} (this agent is left out)`);
  return createTaskTool(environment, definitions, maxParallel);
}
