import { commandFolders, loadCustomCommands } from "../../custom-commands/load-custom-commands.js";
import type { CommandRegistry } from "../command-registry.js";
import { customRuntimeCommand } from "../commands/custom-command-handler.js";
import type { RuntimeCommand } from "../run-context.js";

/**
 * Adds the custom commands (project `.panto/commands/` and `.claude/commands/`, then the user's) to
 * the run's registry. A broken file, or one whose name a built-in command already has, is a warning
 * naming the file, and the others still load.
 */
export async function addCustomCommands(
  registry: CommandRegistry<RuntimeCommand>,
  paths: { projectRoot: string; pantoHome: string },
  onWarning: (message: string) => void,
): Promise<void> {
  const loaded = await loadCustomCommands(commandFolders(paths));
  for (const problem of loaded.problems) onWarning(problem.message);
  for (const command of loaded.commands) {
    const taken = registry.find(command.name);
    if (taken !== undefined) {
      onWarning(
        `${command.path}: /${command.name} is a built-in command (/${taken.name}); this custom command is ignored: rename the file`,
      );
      continue;
    }
    registry.add(customRuntimeCommand(command));
  }
}
