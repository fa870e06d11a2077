import { describe, expect, it } from "vitest";
import { stateProgram } from "../../src/sandbox/git-state-folders.js";

describe("what in a rebase's or cherry-pick's state makes git run a program", () => {
  it("finds a todo's exec line, full or abbreviated, indented or not", () => {
    expect(stateProgram("git-rebase-todo", "pick abc x\nexec make test\n")).toContain('"exec make test"');
    expect(stateProgram("todo", "  x ./evil\n")).toContain('"x ./evil"');
    expect(stateProgram("git-rebase-todo", "x\n")).toBeDefined();
  });

  it("leaves a todo of picks, comments and a break alone", () => {
    const todo = "pick abc exec the plan\n# exec in a comment\nbreak\nfixup -C def x\nlabel onto\n";
    expect(stateProgram("git-rebase-todo", todo)).toBeUndefined();
    expect(stateProgram("todo", "revert abc executable bits\n")).toBeUndefined();
  });

  it("allows git's own merge strategies only, in a strategy file and in the sequencer's opts", () => {
    for (const own of ["ort", "recursive", "resolve", "octopus", "ours", "subtree"]) {
      expect(stateProgram("strategy", `${own}\n`)).toBeUndefined();
      expect(stateProgram("opts", `[options]\n\tstrategy = ${own}\n`)).toBeUndefined();
    }
    expect(stateProgram("strategy", "../evil\n")).toContain("git-merge-../evil");
    expect(stateProgram("opts", "[options]\n\tsignoff = true\n\tStrategy = evil\n")).toContain(
      "git-merge-evil",
    );
    expect(stateProgram("opts", '[options]\n\tstrategy = "ort"\n')).toBeDefined();
    expect(stateProgram("opts", "[options]\n\tsignoff = true\n")).toBeUndefined();
  });
});
