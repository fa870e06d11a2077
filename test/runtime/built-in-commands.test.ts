import { describe, expect, it } from "vitest";
import { parseSlashCommand } from "../../src/runtime/command-registry.js";
import { BUILT_IN_COMMANDS, builtInCommandInfo } from "../../src/runtime/commands/built-in-commands.js";

const commands = builtInCommandInfo();

describe("parseSlashCommand", () => {
  it("splits a command from its arguments", () => {
    expect(parseSlashCommand("/compact keep the bug list")).toEqual({
      name: "compact",
      args: "keep the bug list",
    });
  });

  it("keeps multi-line arguments whole", () => {
    expect(parseSlashCommand("/compact keep\nbugs #3 and #4")).toEqual({
      name: "compact",
      args: "keep\nbugs #3 and #4",
    });
  });

  it("treats a path at the start of a prompt as ordinary text", () => {
    expect(parseSlashCommand("/usr/bin/env is missing on this box")).toBeUndefined();
    expect(parseSlashCommand("fix /compact handling")).toBeUndefined();
  });

  it("lowercases the name and tolerates surrounding whitespace", () => {
    expect(parseSlashCommand("  /Model  openai/gpt-5 ")).toEqual({ name: "model", args: "openai/gpt-5" });
  });
});

describe("the command table", () => {
  it("resolves aliases to their command", () => {
    expect(commands.find("quit")?.name).toBe("exit");
    expect(commands.find("nope")).toBeUndefined();
  });

  it("drives /help: every command and alias is listed", () => {
    const list = commands.formatList();
    for (const command of BUILT_IN_COMMANDS) {
      for (const name of [command.name, ...command.aliases]) expect(list).toContain(`/${name}`);
    }
  });

  it("drives Tab completion", () => {
    expect(commands.complete("/co")).toEqual([["/compact", "/context", "/cost"], "/co"]);
    expect(commands.complete("/comp")).toEqual([["/compact "], "/comp"]);
    expect(commands.complete("hello")).toEqual([[], "hello"]);
  });
});
