import { type Command, Option } from "commander";
import { EXIT_USAGE } from "../../frontends/shared/exit-status.js";
import type { ArgsOutput, ParsedArgs } from "../cli-option-types.js";
import type { RewindCliOptions } from "./run-rewind.js";

interface RawRewindOptions {
  to?: string;
  undo?: true;
  code?: true;
  conversation?: true;
  both?: true;
  dryRun?: true;
  force?: true;
  json?: true;
}

/** Checks the flags of `panto rewind`; a problem comes back as text. */
export function toRewindOptions(
  session: string | undefined,
  raw: RawRewindOptions,
): RewindCliOptions | string {
  const scopes = (["code", "conversation", "both"] as const).filter((scope) => raw[scope] === true);
  if (scopes.length > 1)
    return `choose one of --code, --conversation and --both (got ${scopes.map((scope) => `--${scope}`).join(" and ")})`;
  if (raw.to !== undefined && raw.undo === true)
    return "--to and --undo cannot be used together (choose one point)";
  const to = raw.to === undefined ? undefined : Number(raw.to);
  if (to !== undefined && !(Number.isSafeInteger(to) && to >= 1))
    return `--to needs a turn number from 1 on (got "${raw.to}")`;
  return {
    ...(session === undefined ? {} : { session }),
    ...(to === undefined ? {} : { to }),
    undo: raw.undo === true,
    scope: scopes[0] ?? "both",
    dryRun: raw.dryRun === true,
    force: raw.force === true,
    json: raw.json === true,
  };
}

/** `panto rewind [SESSION] ...`: the subcommand and its flags. */
export function addRewindCommand(
  program: Command,
  output: ArgsOutput,
  onParsed: (result: ParsedArgs) => void,
): void {
  const command = program
    .command("rewind")
    .description("take the code, the conversation or both back to before a turn (or undo the latest rewind)")
    .argument("[session]", "session id prefix or file path (default: this project's latest session)")
    .addOption(new Option("--to <turn>", "the turn to go back to before (its number as /rewind lists it)"))
    .addOption(new Option("--undo", "undo the latest rewind: back to just before it"))
    .addOption(new Option("--code", "restore the files only; the conversation stays"))
    .addOption(new Option("--conversation", "rewind the conversation only; the files stay"))
    .addOption(new Option("--both", "both (the default)"))
    .addOption(new Option("--dry-run", "show exactly what would change, and change nothing"))
    .addOption(new Option("--force", "also overwrite files changed since panto recorded them (conflicts)"))
    .addOption(new Option("--json", "print the outcome as one JSON event"))
    .exitOverride()
    .configureOutput({ writeOut: output.stdout, writeErr: output.stderr });
  command.action((session: string | undefined, raw: RawRewindOptions) => {
    const options = toRewindOptions(session, raw);
    if (typeof options === "string") command.error(`error: ${options}`, { exitCode: EXIT_USAGE });
    else onParsed({ command: "rewind", options });
  });
}
