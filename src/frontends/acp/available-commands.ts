import type { AvailableCommand } from "@agentclientprotocol/sdk";
import type { CommandInfo } from "../../runtime/command-registry.js";

/**
 * The slash commands an editor offers: every one that works without a terminal (those marked
 * "terminal" only mean something at panto's own prompt), with its summary and argument synopsis.
 */
export function availableCommands(commands: readonly CommandInfo[]): AvailableCommand[] {
  return commands
    .filter((command) => command.needs !== "terminal")
    .map((command) => ({
      name: command.name,
      description: command.summary,
      ...(command.args === "" ? {} : { input: { hint: command.args } }),
    }));
}
