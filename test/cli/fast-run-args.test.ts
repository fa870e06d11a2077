import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fastRunArgs, SUBCOMMAND_NAMES } from "../../src/cli/fast-run-args.js";
import { type ParsedArgs, parseCliArgs, subcommandNames } from "../../src/cli/parse-cli-args.js";

function commander(argv: string[]): { parsed: ParsedArgs; output: string } {
  let output = "";
  const write = (text: string): void => {
    output += text;
  };
  return { parsed: parseCliArgs(argv, "9.9.9", { stdout: write, stderr: write }), output };
}

/** Words of panto's command lines, options and their look-alikes among them. */
const WORDS = [
  "-p",
  "--print",
  "--json",
  "-m",
  "--model",
  "--model=x",
  "--session",
  "-c",
  "--continue",
  "-r",
  "--resume",
  "--fork",
  "--max-turns",
  "--allow-tools",
  "--yes",
  "--sandbox",
  "--allow-unsandboxed",
  "-h",
  "--help",
  "-v",
  "--",
  "-",
  "-5",
  "-cp",
  "-pm",
  "--nope",
  "--input-format",
  "--output-format",
  "stream-json",
  "text",
  "read-only",
  "full",
  "bogus-mode",
  "anthropic/claude-sonnet-4-5",
  " ",
  "",
  "0",
  "3",
  "s.jsonl",
  "s.jsonl@2",
  "s@0",
  "hi",
  "fix the bug",
  ...SUBCOMMAND_NAMES,
];

describe("fastRunArgs, a plain run's command line read without commander", () => {
  it("knows every command the parser knows, so a command's name is never taken for a prompt", () => {
    expect([...SUBCOMMAND_NAMES].sort()).toEqual(subcommandNames().sort());
  });

  it("reads the common lines itself", () => {
    expect(fastRunArgs(["-m", "anthropic/claude-sonnet-4-5", "-p", "hi"])).toEqual(
      commander(["-m", "anthropic/claude-sonnet-4-5", "-p", "hi"]).parsed,
    );
    for (const argv of [
      [],
      ["fix", "the", "bug"],
      ["--json", "hi"],
      ["-p"],
      ["-c", "--allow-tools", "-p", "go on"],
      ["-r", "--sandbox", "read-only"],
      ["--fork", "s.jsonl@2", "--max-turns", "3", "-p", "x"],
    ])
      expect(fastRunArgs(argv), argv.join(" ")).toEqual(commander(argv).parsed);
  });

  it("leaves help, version, subcommands, unusual spellings and every error to commander", () => {
    for (const argv of [
      ["--help"],
      ["-h"],
      ["-v", "-p", "x"],
      ["sessions"],
      ["-m", "x", "demo"],
      ["--model=x", "-p", "hi"],
      ["-cp", "hi"],
      ["-m"],
      ["-m", "-p"],
      ["--sandbox", "bogus"],
      ["--max-turns", "0", "-p", "x"],
      ["-p", "one", "two"],
      ["--session", "a", "-c"],
      ["-m", "a", "-m", "b"],
      ["--", "-p"],
      ["--nope"],
      ["--input-format", "stream-json", "--json"],
      ["--output-format", "stream-json", "-p", "hi"],
    ])
      expect(fastRunArgs(argv), argv.join(" ")).toBeUndefined();
  });

  it("agrees with commander on every line it reads, and prints nothing where commander prints nothing", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...WORDS), { maxLength: 7 }), (argv) => {
        const fast = fastRunArgs(argv);
        if (fast === undefined) return;
        const slow = commander(argv);
        expect(slow.output).toBe("");
        expect(fast).toEqual(slow.parsed);
      }),
      { numRuns: 3000 },
    );
  });
});
