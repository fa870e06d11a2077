import { describe, expect, it } from "vitest";
import { type ParsedArgs, parseCliArgs } from "../../src/cli/parse-cli-args.js";

function parse(argv: string[]): { parsed: ParsedArgs; stdout: string; stderr: string } {
  let stdout = "";
  let stderr = "";
  const parsed = parseCliArgs(argv, "9.9.9", {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
  });
  return { parsed, stdout, stderr };
}

describe("parseCliArgs", () => {
  it("runs interactively with no flags", () => {
    expect(parse([]).parsed).toEqual({
      command: "run",
      options: {
        print: false,
        json: false,
        continue: false,
        allowTools: false,
        yes: false,
        allowUnsandboxed: false,
      },
    });
  });

  it("takes --sandbox MODE and --allow-unsandboxed, and refuses a mode it does not know", () => {
    expect(parse(["--sandbox", "read-only", "--allow-unsandboxed", "-p", "x"]).parsed).toMatchObject({
      command: "run",
      options: { sandbox: "read-only", allowUnsandboxed: true },
    });
    const bad = parse(["--sandbox", "none", "-p", "x"]);
    expect(bad.parsed).toEqual({ command: "exit", code: 2 });
    expect(bad.stderr).toContain("workspace-write");
    expect(parse(["sandbox", "--json", "--sandbox", "read-only"]).parsed).toEqual({
      command: "sandbox",
      json: true,
      mode: "read-only",
    });
    expect(parse(["acp", "--sandbox", "full", "--max-turns", "3"]).parsed).toEqual({
      command: "acp",
      sandbox: "full",
      maxTurns: 3,
    });
    expect(parse(["acp", "--sandbox", "none"]).parsed).toEqual({ command: "exit", code: 2 });
  });

  it("takes the -p value as the prompt and every other flag", () => {
    const { parsed } = parse([
      "-p",
      "hello",
      "-m",
      "openai/gpt-5",
      "--session",
      "s.jsonl",
      "--allow-tools",
      "--yes",
    ]);
    expect(parsed).toEqual({
      command: "run",
      options: {
        print: true,
        prompt: "hello",
        json: false,
        model: "openai/gpt-5",
        session: "s.jsonl",
        continue: false,
        allowTools: true,
        yes: true,
        allowUnsandboxed: false,
      },
    });
  });

  it("leaves the prompt undefined for a bare -p, so it is read from stdin", () => {
    const { parsed } = parse(["-p", "-c"]);
    expect(parsed).toMatchObject({ command: "run", options: { print: true, continue: true } });
    expect(parsed.command === "run" && "prompt" in parsed.options).toBe(false);
  });

  it("makes --json imply print mode", () => {
    expect(parse(["--json"]).parsed).toMatchObject({ command: "run", options: { print: true, json: true } });
  });

  it("takes --input-format stream-json with JSON output and no prompt, and --output-format stream-json as --json", () => {
    expect(parse(["--input-format", "stream-json", "--json"]).parsed).toMatchObject({
      command: "run",
      options: { print: true, json: true, inputFormat: "stream-json" },
    });
    const synonym = parse(["-p", "--input-format", "stream-json", "--output-format", "stream-json"]).parsed;
    expect(synonym).toMatchObject({ command: "run", options: { json: true, inputFormat: "stream-json" } });
    const text = parse(["--input-format", "text", "--output-format", "text", "-p", "hi"]).parsed;
    expect(text.command === "run" && text.options).toEqual({
      print: true,
      json: false,
      prompt: "hi",
      continue: false,
      allowTools: false,
      yes: false,
      allowUnsandboxed: false,
    });
  });

  it("refuses stream-json input without JSON output, with a prompt, or an input format it does not know", () => {
    const cases: Array<[string[], string]> = [
      [["--input-format", "stream-json", "-p"], "add --json (or --output-format stream-json)"],
      [["--input-format", "stream-json", "--json", "-p", "hi"], "give no prompt on the command line"],
      [["--input-format", "stream-json", "--json", "hi"], "give no prompt on the command line"],
      [["--input-format", "yaml", "--json"], "yaml"],
    ];
    for (const [argv, message] of cases) {
      const { parsed, stderr } = parse(argv);
      expect(parsed, argv.join(" ")).toEqual({ command: "exit", code: 2 });
      expect(stderr).toContain(message);
    }
  });

  it("recognises the demo command", () => {
    expect(parse(["demo"]).parsed).toEqual({ command: "demo", keep: false });
    expect(parse(["demo", "--keep"]).parsed).toEqual({ command: "demo", keep: true });
  });

  it("recognises the sessions command and its own --json", () => {
    expect(parse(["sessions"]).parsed).toEqual({ command: "sessions", json: false });
    expect(parse(["sessions", "--json"]).parsed).toEqual({ command: "sessions", json: true });
  });

  it("takes -r with an id, or alone to pick, and refuses it with -c or --session", () => {
    const withId = parse(["-r", " 3f2a ", "-p", "hi"]).parsed;
    expect(withId.command === "run" && withId.options.resume).toBe("3f2a");
    const alone = parse(["--resume"]).parsed;
    expect(alone.command === "run" && alone.options.resume).toBe(true);
    for (const other of [["-c"], ["--session", "a.jsonl"]]) {
      const { parsed, stderr } = parse(["-r", "3f2a", ...other]);
      expect(parsed).toEqual({ command: "exit", code: 2 });
      expect(stderr).toContain("--resume cannot be used with --session or --continue");
    }
  });

  it("exits 2 with a message on an unknown flag", () => {
    const { parsed, stderr } = parse(["--frobnicate"]);
    expect(parsed).toEqual({ command: "exit", code: 2 });
    expect(stderr).toContain("--frobnicate");
  });

  it("exits 2 when --session and --continue are combined", () => {
    const { parsed, stderr } = parse(["--session", "a.jsonl", "-c"]);
    expect(parsed).toEqual({ command: "exit", code: 2 });
    expect(stderr).toContain("--session and --continue");
  });

  it("takes a positional prompt without -p or --json as the interactive session's first prompt", () => {
    const { parsed } = parse(["what", "is", "this"]);
    expect(parsed).toMatchObject({
      command: "run",
      options: { print: false, json: false, prompt: "what is this" },
    });
  });

  it("takes the prompt after the options when -p has no value or with --json", () => {
    const afterJson = parse(["-p", "--json", "what", "is", "this"]).parsed;
    expect(afterJson).toMatchObject({
      command: "run",
      options: { print: true, json: true, prompt: "what is this" },
    });
    const jsonOnly = parse(["--json", "hello"]).parsed;
    expect(jsonOnly).toMatchObject({ command: "run", options: { json: true, prompt: "hello" } });
  });

  it("exits 2 when the prompt is given both as the -p value and after the options", () => {
    const { parsed, stderr } = parse(["-p", "one", "two"]);
    expect(parsed).toEqual({ command: "exit", code: 2 });
    expect(stderr).toContain("give the prompt once");
  });

  it("prints help on stdout and exits 0, documenting flags, commands, config, env and exit statuses", () => {
    const { parsed, stdout } = parse(["--help"]);
    expect(parsed).toEqual({ command: "exit", code: 0 });
    for (const text of [
      "--print",
      "--json",
      "--model",
      "--session",
      "--continue",
      "--allow-tools",
      "--version",
      "/compact",
      "/model",
      "/session",
      "/context",
      "/exit",
      "config.json",
      "COMPACTION.md",
      "keep_verbatim_tokens",
      "compaction_model",
      "ANTHROPIC_API_KEY",
      "OPENAI_BASE_URL",
      "GEMINI_API_KEY",
      "130",
      "ollama/",
      "panto demo",
      "panto sessions",
      "--resume",
      "--max-turns",
      "max_turns",
      "/mcp",
      "mcp_servers",
      ".mcp.json",
    ]) {
      expect(stdout).toContain(text);
    }
  });

  it("prints the version on stdout and exits 0", () => {
    const { parsed, stdout } = parse(["--version"]);
    expect(parsed).toEqual({ command: "exit", code: 0 });
    expect(stdout.trim()).toBe("9.9.9");
  });
});
