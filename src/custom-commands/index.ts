export type { CommandFileProblem, CustomCommand, CustomCommandSource } from "./custom-command.js";
export { expandCommandBody, splitArguments } from "./expand-command-body.js";
export {
  type CommandFolder,
  commandFolders,
  type LoadedCommands,
  loadCustomCommands,
} from "./load-custom-commands.js";
export { isCommandProblem, parseCommandFile } from "./parse-command-file.js";
