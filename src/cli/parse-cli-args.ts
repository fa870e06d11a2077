import { Command, CommanderError, Option } from "commander";
import { optional, SANDBOX_MODES, type SandboxMode } from "../core/index.js";
import { EXIT_OK, EXIT_USAGE } from "../frontends/shared/exit-status.js";
import type { ArgsOutput, ExportCliOptions, ParsedArgs } from "./cli-option-types.js";
import { addFidelityCommand } from "./fidelity/fidelity-command.js";
import { helpAppendix } from "./help-text.js";
import { addRewindCommand } from "./rewind/rewind-command.js";
import { type RawOptions, toCliOptions } from "./to-cli-options.js";

export type {
  ArgsOutput,
  ExportCliOptions,
  FidelityCliOptions,
  ParsedArgs,
} from "./cli-option-types.js";

/**
 * Parses argv (without the node and script entries) with commander. Help and version go to
 * stdout and exit 0; unknown flags and other usage errors go to stderr and exit 2.
 */
export function parseCliArgs(argv: readonly string[], version: string, output: ArgsOutput): ParsedArgs {
  let parsed: ParsedArgs = { command: "exit", code: EXIT_OK };
  const program = buildProgram(version, output, (result) => {
    parsed = result;
  });
  try {
    program.parse([...argv], { from: "user" });
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    if (error.exitCode === 0) return { command: "exit", code: EXIT_OK };
    const json = jsonUsageError(
      argv,
      error.message,
      new Set(program.commands.map((command) => command.name())),
    );
    if (json !== undefined) output.stdout(json);
    return { command: "exit", code: EXIT_USAGE };
  }
  return parsed;
}

/** The names of panto's commands, as the parser knows them (a test holds fastRunArgs to this list). */
export function subcommandNames(): string[] {
  const ignore = { stdout: () => undefined, stderr: () => undefined };
  return buildProgram("0", ignore, () => undefined).commands.map((command) => command.name());
}

/**
 * What a script reading `--json` output gets for a command line panto refuses (the text goes to
 * stderr as well): an `error` event, and for a run (not a subcommand, which prints one object)
 * the `done` event every run ends with. Undefined without `--json` before a `--`.
 */
function jsonUsageError(
  argv: readonly string[],
  message: string,
  subcommands: Set<string>,
): string | undefined {
  const end = argv.indexOf("--");
  const options = end === -1 ? argv : argv.slice(0, end);
  const streamJson = options.some(
    (arg, index) =>
      arg === "--output-format=stream-json" ||
      (arg === "--output-format" && options[index + 1] === "stream-json"),
  );
  if (!options.includes("--json") && !streamJson) return undefined;
  const error = { type: "error", code: "usage", message: message.replace(/^error: /, "") };
  const lines = [error, ...(subcommands.has(argv[0] ?? "") ? [] : [{ type: "done", exit_code: EXIT_USAGE }])];
  return lines.map((line) => `${JSON.stringify(line)}\n`).join("");
}

function buildProgram(version: string, output: ArgsOutput, onParsed: (result: ParsedArgs) => void): Command {
  const program = new Command("panto")
    .description(
      "A terminal AI coding agent whose long sessions never fall over: when the model's context window is full, it compacts the conversation and retries.",
    )
    .version(version, "-v, --version", "print the version and exit")
    .helpOption("-h, --help", "show this help and exit")
    .addOption(new Option("-p, --print [prompt]", "run one prompt, print the final answer, exit"))
    .addOption(new Option("--json", "print one JSON event per line instead of text (implies --print)"))
    .addOption(
      new Option(
        "--image <file>",
        "with -p or --json: send this PNG, JPEG, GIF or WebP image with the prompt (repeatable)",
      ).argParser((value: string, previous: string[] | undefined) => [...(previous ?? []), value]),
    )
    .addOption(
      new Option(
        "--input-format <format>",
        "text (default), or stream-json: with --json, one session fed one JSON message per stdin line",
      ).choices(["text", "stream-json"]),
    )
    .addOption(
      new Option("--output-format <format>", "text (default), or stream-json: the same as --json").choices([
        "text",
        "stream-json",
      ]),
    )
    .addOption(new Option("-m, --model <provider/model>", "model to use, e.g. anthropic/claude-sonnet-4-5"))
    .addOption(new Option("--session <path>", "use or create exactly this session file"))
    .addOption(
      new Option("-c, --continue", "continue the most recent session of this project that holds a message"),
    )
    .addOption(
      new Option("-r, --resume [id]", "resume a session by id prefix or path; without an id, pick one"),
    )
    .addOption(
      new Option(
        "--fork <session[@turn]>",
        "continue in a new session started from SESSION (id prefix or path) after turn TURN (default: all of it)",
      ),
    )
    .addOption(
      new Option(
        "--max-turns <n>",
        "stop each prompt after N model requests (print and JSON modes: exit status 3)",
      ),
    )
    .addOption(
      new Option(
        "--allow-tools",
        "let write, edit and bash run without asking (print and JSON modes deny them otherwise)",
      ),
    )
    .addOption(
      new Option(
        "--plan",
        "start in plan mode: the model reads, searches and runs read-only commands, write and edit are refused; it ends with a plan (/plan off, Shift+Tab leave it)",
      ),
    )
    .addOption(
      new Option(
        "--yes",
        "print and JSON modes: start what a command prepares without asking (/handoff's new session)",
      ),
    )
    .addOption(sandboxOption())
    .addOption(
      new Option(
        "--allow-unsandboxed",
        "print and JSON modes: run the model's requests to leave the sandbox instead of refusing them",
      ),
    )
    .argument(
      "[prompt...]",
      "in a terminal, starts the interactive session with this prompt; with -p or --json (or without a terminal), the one prompt",
    )
    .addHelpText("after", helpAppendix())
    .showSuggestionAfterError(true)
    .showHelpAfterError("(panto --help lists the options)")
    .exitOverride()
    .configureOutput({ writeOut: output.stdout, writeErr: output.stderr })
    // Options after a subcommand's name are its own: `panto sessions --json`.
    .enablePositionalOptions()
    .action((words: string[], raw: RawOptions) => {
      const options = toCliOptions(raw, words);
      if (typeof options === "string") program.error(`error: ${options}`, { exitCode: EXIT_USAGE });
      else onParsed({ command: "run", options });
    });
  program
    .command("demo")
    .description("offline simulation: overflow, compaction, retry and /compact against a simulated provider")
    .addOption(
      new Option("--keep", "keep the demo's temporary folder (session file included) and print where"),
    )
    .exitOverride()
    .configureOutput({ writeOut: output.stdout, writeErr: output.stderr })
    .action((raw: { keep?: true }) => onParsed({ command: "demo", keep: raw.keep === true }));
  const sessions = program
    .command("sessions")
    .description("list this project's sessions, newest first (panto -r ID resumes one)")
    .addOption(new Option("--json", "print the list as one JSON array"))
    .exitOverride()
    .configureOutput({ writeOut: output.stdout, writeErr: output.stderr })
    .action((raw: { json?: true }) => onParsed({ command: "sessions", json: raw.json === true }));
  program
    .command("sandbox")
    .description("try each sandbox rule for real on this machine and print what holds")
    .addOption(sandboxOption())
    .addOption(new Option("--json", "print the report as one JSON object"))
    .exitOverride()
    .configureOutput({ writeOut: output.stdout, writeErr: output.stderr })
    .action((raw: { json?: true; sandbox?: SandboxMode }) =>
      onParsed({ command: "sandbox", json: raw.json === true, ...optional("mode", raw.sandbox) }),
    );
  program
    .command("permissions")
    .description("list the permission rules of every config file, deny first, with where each is from")
    .addOption(new Option("--json", 'print {"rules": [...], "files": [...]} as one JSON object'))
    .exitOverride()
    .configureOutput({ writeOut: output.stdout, writeErr: output.stderr })
    .action((raw: { json?: true }) => onParsed({ command: "permissions", json: raw.json === true }));
  sessions
    .command("rm")
    .description("delete a session, and the checkpoint content only it used")
    .argument("<session>", "session id prefix or file path")
    .addOption(new Option("--json", "print what was removed as one JSON object"))
    .exitOverride()
    .configureOutput({ writeOut: output.stdout, writeErr: output.stderr })
    .action((session: string, raw: { json?: true }) =>
      onParsed({ command: "sessions-rm", session, json: raw.json === true }),
    );
  addHelpCommand(program, output, onParsed);
  addAcpCommand(program, output, onParsed);
  addExportCommand(program, output, onParsed);
  addImportCommand(program, output, onParsed);
  addFidelityCommand(program, output, onParsed);
  addRewindCommand(program, output, onParsed);
  return program;
}

function sandboxOption(): Option {
  return new Option(
    "--sandbox <mode>",
    "how the model's commands and file tools are confined: workspace-write (default), read-only, full (no sandbox)",
  ).choices(SANDBOX_MODES);
}

/** `panto help [command]`: what `--help` shows, for panto or for one of its commands. */
function addHelpCommand(program: Command, output: ArgsOutput, onParsed: (result: ParsedArgs) => void): void {
  const help = program
    .command("help")
    .description("show this help, or a command's: panto help export")
    .argument("[command]", "the command to explain")
    .exitOverride()
    .configureOutput({ writeOut: output.stdout, writeErr: output.stderr });
  help.action((name: string | undefined) => {
    const target = name === undefined ? program : program.commands.find((command) => command.name() === name);
    if (target === undefined || target === help) {
      const known = program.commands.map((command) => command.name()).filter((known) => known !== "help");
      help.error(`error: unknown command "${name}"; the commands are ${known.join(", ")}`, {
        exitCode: EXIT_USAGE,
      });
    }
    target?.outputHelp();
    onParsed({ command: "exit", code: EXIT_OK });
  });
}

function addAcpCommand(program: Command, output: ArgsOutput, onParsed: (result: ParsedArgs) => void): void {
  const acp = program
    .command("acp")
    .description(
      "run as an Agent Client Protocol agent on stdin/stdout, for editors (Zed, JetBrains, Neovim, Emacs); context warnings, clearings of old tool outputs and compactions prepared ahead come as usage_update with panto/ _meta (README: Editors)",
    )
    .addOption(new Option("-m, --model <provider/model>", "model of the sessions this process starts"))
    .addOption(
      new Option("--max-turns <n>", "stop a prompt after N model requests (stop reason max_turn_requests)"),
    )
    .addOption(sandboxOption())
    .exitOverride()
    .configureOutput({ writeOut: output.stdout, writeErr: output.stderr });
  acp.action((raw: { model?: string; maxTurns?: string; sandbox?: SandboxMode }) => {
    const maxTurns = raw.maxTurns === undefined ? undefined : Number(raw.maxTurns);
    if (maxTurns !== undefined && !(Number.isSafeInteger(maxTurns) && maxTurns > 0))
      acp.error(`error: --max-turns needs a whole number of model requests above 0 (got "${raw.maxTurns}")`, {
        exitCode: EXIT_USAGE,
      });
    if (raw.model?.trim() === "")
      acp.error("error: --model needs a value written provider/model", { exitCode: EXIT_USAGE });
    onParsed({
      command: "acp",
      ...(raw.model === undefined ? {} : { model: raw.model.trim() }),
      ...(maxTurns === undefined ? {} : { maxTurns }),
      ...(raw.sandbox === undefined ? {} : { sandbox: raw.sandbox }),
    });
  });
}

function addExportCommand(
  program: Command,
  output: ArgsOutput,
  onParsed: (result: ParsedArgs) => void,
): void {
  program
    .command("export")
    .description(
      "write a session as one self-contained HTML page (or Markdown, or JSON) with its compaction timeline",
    )
    .argument("[session]", "session id prefix or file path (default: this project's latest session)")
    .addOption(
      new Option(
        "-o, --output <file>",
        'output file in an existing folder, "-" for stdout (default: <session name>.html beside the session file)',
      ),
    )
    .addOption(
      new Option("--format <format>", "html, md or json (default: from the -o extension, else html)").choices(
        ["html", "md", "json"],
      ),
    )
    .addOption(
      new Option("--full", "keep long tool results whole (they are cut to 4,000 characters otherwise)"),
    )
    .exitOverride()
    .configureOutput({ writeOut: output.stdout, writeErr: output.stderr })
    .action(
      (
        session: string | undefined,
        raw: { output?: string; format?: "html" | "md" | "json"; full?: true },
      ) => {
        const options: ExportCliOptions = { full: raw.full === true };
        if (session !== undefined) options.session = session;
        if (raw.output !== undefined) options.output = raw.output;
        if (raw.format !== undefined) options.format = raw.format;
        onParsed({ command: "export", options });
      },
    );
}

function addImportCommand(
  program: Command,
  output: ArgsOutput,
  onParsed: (result: ParsedArgs) => void,
): void {
  program
    .command("import")
    .description(
      "make a session of this project from a Claude Code, Codex or pi session file, or from each one under a folder (panto -r ID continues it)",
    )
    .argument(
      "<file|dir>",
      "a session file (format told by its content), or a folder searched for *.jsonl session files",
    )
    .addOption(new Option("--dry-run", "say what would be imported; write nothing"))
    .addOption(new Option("--json", "print the import report as one JSON object"))
    .exitOverride()
    .configureOutput({ writeOut: output.stdout, writeErr: output.stderr })
    .action((target: string, raw: { dryRun?: true; json?: true }) =>
      onParsed({
        command: "import",
        options: { target, dryRun: raw.dryRun === true, json: raw.json === true },
      }),
    );
}
