import { SANDBOX_MODES, type SandboxMode } from "../core/sandbox-mode.js";
import type { ParsedArgs } from "./cli-option-types.js";
import { type RawOptions, toCliOptions } from "./to-cli-options.js";

/**
 * The commands `panto` knows (cli-options.ts builds them): a first word naming one is never a prompt.
 * test/cli/fast-run-args.test.ts checks this list against the parser's.
 */
export const SUBCOMMAND_NAMES: readonly string[] = [
  "demo",
  "sessions",
  "sandbox",
  "permissions",
  "help",
  "acp",
  "export",
  "import",
  "fidelity",
  "rewind",
];

type Flag = "json" | "continue" | "allowTools" | "plan" | "yes" | "allowUnsandboxed";
type Valued = "model" | "session" | "fork" | "maxTurns" | "sandbox";
type Optional = "print" | "resume";

/** The run's options in the one spelling each that the fast path reads: a flag, or a flag then its value. */
const FLAGS: Readonly<Record<string, Flag>> = {
  "--json": "json",
  "-c": "continue",
  "--continue": "continue",
  "--allow-tools": "allowTools",
  "--plan": "plan",
  "--yes": "yes",
  "--allow-unsandboxed": "allowUnsandboxed",
};
const VALUED: Readonly<Record<string, Valued>> = {
  "-m": "model",
  "--model": "model",
  "--session": "session",
  "--fork": "fork",
  "--max-turns": "maxTurns",
  "--sandbox": "sandbox",
};
const OPTIONAL: Readonly<Record<string, Optional>> = {
  "-p": "print",
  "--print": "print",
  "-r": "resume",
  "--resume": "resume",
};

/**
 * The common command lines of a run (`panto -m MODEL -p PROMPT`, `panto --json ...`, a prompt as
 * words) parsed without commander, whose code is the largest part of what a short run loads and
 * compiles. Only lines whose meaning is plain are read here: each option spelt out on its own
 * (no `--model=x`, no `-cp`), given once, its value not starting with "-", no `--`, no help or
 * version, no subcommand name among the words, and options that agree (toCliOptions). Anything else,
 * and every error, returns undefined and goes to commander, so messages, exit statuses and --help
 * stay commander's. Where both read a line, they read it the same (the test compares them).
 */
export function fastRunArgs(argv: readonly string[]): ParsedArgs | undefined {
  const raw: RawOptions = {};
  const seen = new Set<string>();
  const words: string[] = [];
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index] as string;
    if (!arg.startsWith("-")) {
      if (SUBCOMMAND_NAMES.includes(arg)) return undefined;
      words.push(arg);
      continue;
    }
    const name = FLAGS[arg] ?? VALUED[arg] ?? OPTIONAL[arg];
    if (name === undefined || seen.has(name)) return undefined;
    seen.add(name);
    const next = argv[index + 1];
    const flag = FLAGS[arg];
    if (flag !== undefined) {
      raw[flag] = true;
      continue;
    }
    const optional = OPTIONAL[arg];
    if (optional !== undefined) {
      // Commander takes the next word as the value unless it looks like an option.
      const takesValue = next !== undefined && !(next.length > 1 && next.startsWith("-"));
      raw[optional] = takesValue ? next : true;
      if (takesValue) index++;
      continue;
    }
    if (next === undefined || next.startsWith("-")) return undefined;
    index++;
    const valued = VALUED[arg] as Valued;
    if (valued === "sandbox") {
      if (!SANDBOX_MODES.includes(next as SandboxMode)) return undefined;
      raw.sandbox = next as SandboxMode;
    } else raw[valued] = next;
  }
  const options = toCliOptions(raw, words);
  return typeof options === "string" ? undefined : { command: "run", options };
}
