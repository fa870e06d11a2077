import { describe, expect, it } from "vitest";
import { CommandRegistry } from "../../src/runtime/command-registry.js";
import { BUILT_IN_COMMANDS, builtInCommandInfo } from "../../src/runtime/commands/built-in-commands.js";
import { builtInCommands } from "../../src/runtime/commands/built-in-handlers.js";

const custom = { name: "review", aliases: ["rv"], args: "[focus]", summary: "review the staged diff" };

describe("CommandRegistry", () => {
  it("gives every built-in command a handler, in the order /help lists them", () => {
    expect(builtInCommands().map((command) => command.name)).toEqual(
      BUILT_IN_COMMANDS.map((command) => command.name),
    );
    expect(builtInCommands().every((command) => typeof command.execute === "function")).toBe(true);
  });

  it("marks what a command needs from its front-end, so an editor protocol can list the rest", () => {
    const needing = BUILT_IN_COMMANDS.filter((command) => command.needs !== undefined).map((command) => [
      command.name,
      command.needs,
    ]);
    expect(needing).toEqual([
      ["summary", "editor"],
      ["clear", "terminal"],
      ["exit", "terminal"],
    ]);
  });

  it("takes a command added after the built-ins into /help, Tab completion, lookup and did-you-mean", () => {
    const commands = builtInCommandInfo();
    commands.add(custom);
    expect(commands.formatList()).toMatch(/\/review, \/rv \[focus\]\s+review the staged diff$/);
    expect(commands.complete("/rev")).toEqual([["/review "], "/rev"]);
    expect(commands.find("RV")?.name).toBe("review");
    expect(commands.unknownCommandMessage("reveiw")).toBe(
      "unknown command /reveiw; did you mean /review? /help lists the commands",
    );
  });

  it("refuses a command whose name or alias is taken, naming it, and keeps the one there", () => {
    const commands = builtInCommandInfo();
    expect(() => commands.add({ ...custom, name: "compact" })).toThrow("/compact is already a command");
    expect(() => commands.add({ ...custom, aliases: ["quit"] })).toThrow("/quit is already a command");
    expect(commands.find("review")).toBeUndefined();
    expect(commands.list()).toHaveLength(BUILT_IN_COMMANDS.length);
  });

  it("keeps registries apart: adding to one leaves another as it was", () => {
    const one = new CommandRegistry(BUILT_IN_COMMANDS);
    const other = new CommandRegistry(BUILT_IN_COMMANDS);
    one.add(custom);
    expect(other.find("review")).toBeUndefined();
  });
});
