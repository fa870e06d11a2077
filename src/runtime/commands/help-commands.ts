import { findProjectRoot, resolvePantoHome } from "../../config/index.js";
import { commandFolders, loadCustomCommands } from "../../custom-commands/load-custom-commands.js";
import type { CommandInfo, CommandRegistry } from "../command-registry.js";
import { builtInCommandInfo } from "./built-in-commands.js";
import { customRuntimeCommand } from "./custom-command-handler.js";

/**
 * The commands `/help` lists where no run is set up (print mode answers it before any model or
 * key is needed): the built-in ones and this project's and user's custom commands. Files that
 * cannot be read are left out here; a run warns about them.
 */
export async function helpCommands(io: {
  cwd: string;
  env: NodeJS.ProcessEnv;
}): Promise<CommandRegistry<CommandInfo>> {
  const registry = builtInCommandInfo();
  const pantoHome = resolvePantoHome(io.env);
  const projectRoot = findProjectRoot(io.cwd, { pantoHome });
  const loaded = await loadCustomCommands(commandFolders({ projectRoot, pantoHome }));
  for (const command of loaded.commands)
    if (registry.find(command.name) === undefined) registry.add(customRuntimeCommand(command));
  return registry;
}
