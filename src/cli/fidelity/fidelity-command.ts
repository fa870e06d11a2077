import { type Command, Option } from "commander";
import { EXIT_USAGE } from "../../frontends/shared/exit-status.js";
import type { ArgsOutput, FidelityCliOptions, ParsedArgs } from "../cli-option-types.js";

interface RawFidelityOptions {
  fresh?: true;
  prompt?: string;
  compactionModel?: string;
  model?: string;
  probe?: true;
  baseline?: true;
  json?: true;
}

/** Registers `panto fidelity`: what the compaction in effect (or a fresh one) kept and lost. */
export function addFidelityCommand(
  program: Command,
  output: ArgsOutput,
  onParsed: (result: ParsedArgs) => void,
): void {
  const command = program
    .command("fidelity")
    .description(
      "check what a compaction kept: the paths, commands, errors and instructions of the summarised turns found in the summary and the block, and (--probe) recalled by the model",
    )
    .argument("[session]", "session id prefix or file path (default: this project's latest session)")
    .addOption(new Option("--fresh", "check a new compaction of the current context, written nowhere"))
    .addOption(new Option("--prompt <file>", "with --fresh: use this COMPACTION.md instead"))
    .addOption(new Option("--compaction-model <provider/model>", "with --fresh: use this summariser instead"))
    .addOption(
      new Option("-m, --model <provider/model>", "the model that answers probes (default: config model)"),
    )
    .addOption(new Option("--probe", "ask the model about the facts after the compacted context"))
    .addOption(new Option("--baseline", "with --probe: ask after the full, uncompacted context too"))
    .addOption(new Option("--json", "print the report as one JSON object"))
    .exitOverride()
    .configureOutput({ writeOut: output.stdout, writeErr: output.stderr })
    .action((session: string | undefined, raw: RawFidelityOptions) => {
      const options = toFidelityOptions(session, raw);
      if (typeof options === "string") command.error(`error: ${options}`, { exitCode: EXIT_USAGE });
      else onParsed({ command: "fidelity", options });
    });
}

/** Validates flag combinations; returns the problem as a string. */
function toFidelityOptions(
  session: string | undefined,
  raw: RawFidelityOptions,
): FidelityCliOptions | string {
  if (raw.prompt !== undefined && raw.fresh !== true)
    return "--prompt applies to a fresh compaction: add --fresh";
  if (raw.compactionModel !== undefined && raw.fresh !== true)
    return "--compaction-model applies to a fresh compaction: add --fresh";
  if (raw.baseline === true && raw.probe !== true) return "--baseline compares probes: add --probe";
  for (const [flag, value] of [
    ["--prompt", raw.prompt],
    ["--compaction-model", raw.compactionModel],
    ["--model", raw.model],
  ] as const)
    if (value?.trim() === "") return `${flag} needs a value`;
  const options: FidelityCliOptions = {
    fresh: raw.fresh === true,
    probe: raw.probe === true,
    baseline: raw.baseline === true,
    json: raw.json === true,
  };
  if (session !== undefined) options.session = session;
  if (raw.prompt !== undefined) options.prompt = raw.prompt;
  if (raw.compactionModel !== undefined) options.compactionModel = raw.compactionModel.trim();
  if (raw.model !== undefined) options.model = raw.model.trim();
  return options;
}
