import { describe, expect, it } from "vitest";
import {
  completeSlashCommand,
  findSlashCommand,
  formatSlashCommandList,
  parseSlashCommand,
  SLASH_COMMAND_TABLE,
} from "../../src/runtime/commands/built-in-commands.js";

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
    expect(findSlashCommand("quit")?.name).toBe("exit");
    expect(findSlashCommand("nope")).toBeUndefined();
  });

  it("drives /help: every command and alias is listed", () => {
    const list = formatSlashCommandList();
    for (const command of SLASH_COMMAND_TABLE) {
      for (const name of [command.name, ...command.aliases]) expect(list).toContain(`/${name}`);
    }
  });

  it("drives Tab completion", () => {
    expect(completeSlashCommand("/co")).toEqual([["/compact", "/context", "/cost"], "/co"]);
    expect(completeSlashCommand("/comp")).toEqual([["/compact "], "/comp"]);
    expect(completeSlashCommand("hello")).toEqual([[], "hello"]);
  });
});
