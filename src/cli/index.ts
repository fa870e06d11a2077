/** The command-line interface. `main.ts` is the executable; these are its parts, for tests and embedding. */
export { type CliOptions, type ParsedArgs, parseCliArgs } from "./cli-options.js";
export { type DemoIo, runDemo } from "./demo.js";
export { describeContext } from "./describe-context.js";
export { EXIT_FAILURE, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, UsageError } from "./exit-status.js";
export { type JsonEvent, jsonLine, toJsonEvent } from "./json-events.js";
export { type CliIo, runCli } from "./run-cli.js";
export {
  findSlashCommand,
  parseSlashCommand,
  SLASH_COMMAND_TABLE,
  type SlashCommandInfo,
} from "./slash-command-table.js";
export { runSlashCommand, type SlashResult } from "./slash-commands.js";
export { type RunContext, type RunHooks, startRun } from "./start-run.js";
