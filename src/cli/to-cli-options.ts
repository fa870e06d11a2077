import type { SandboxMode } from "../core/sandbox-mode.js";
import type { CliOptions } from "../frontends/shared/cli-options.js";

/** The root command's options as parsed from argv, before they are checked together. */
export interface RawOptions {
  print?: string | true;
  json?: true;
  model?: string;
  session?: string;
  continue?: true;
  resume?: string | true;
  maxTurns?: string;
  allowTools?: true;
  plan?: true;
  yes?: true;
  sandbox?: SandboxMode;
  allowUnsandboxed?: true;
  fork?: string;
  inputFormat?: "text" | "stream-json";
  /** Claude Code's spelling: "stream-json" is --json; "text" the default. */
  outputFormat?: "text" | "stream-json";
  /** --image FILE, each time given. */
  image?: string[];
}

/** "SESSION@TURN" or "SESSION": the session argument and the turn, or a problem. */
function parseFork(value: string): { session: string; turn?: number } | string {
  const at = value.lastIndexOf("@");
  const tail = at === -1 ? "" : value.slice(at + 1);
  if (at === -1 || !/^\d+$/.test(tail)) {
    if (value.trim() === "")
      return "--fork needs a session: an id prefix or a path, with @TURN to fork after that turn";
    return { session: value };
  }
  const turn = Number(tail);
  if (turn < 1) return `--fork turns are numbered from 1 (got "${value}")`;
  return { session: value.slice(0, at), turn };
}

/** Validates flag combinations; returns the problem as a string. */
export function toCliOptions(raw: RawOptions, words: readonly string[] = []): CliOptions | string {
  const positional = words.length === 0 ? undefined : words.join(" ");
  if (positional !== undefined && typeof raw.print === "string")
    return "give the prompt once: as the -p value or after the options, not both";
  if (raw.session !== undefined && raw.continue === true)
    return "--session and --continue cannot be used together (choose one session)";
  if (raw.resume !== undefined && (raw.session !== undefined || raw.continue === true))
    return "--resume cannot be used with --session or --continue (choose one session)";
  if (
    raw.fork !== undefined &&
    (raw.session !== undefined || raw.continue === true || raw.resume !== undefined)
  )
    return "--fork cannot be used with --session, --continue or --resume (the fork is a new session)";
  const fork = raw.fork === undefined ? undefined : parseFork(raw.fork);
  if (typeof fork === "string") return fork;
  if (raw.model?.trim() === "") return "--model needs a value written provider/model";
  const maxTurns = raw.maxTurns === undefined ? undefined : Number(raw.maxTurns);
  if (maxTurns !== undefined && !(Number.isSafeInteger(maxTurns) && maxTurns > 0))
    return `--max-turns needs a whole number of model requests above 0 (got "${raw.maxTurns}")`;
  const json = raw.json === true || raw.outputFormat === "stream-json";
  const streamInput = streamInputProblem(raw, json, positional);
  if (streamInput !== undefined) return streamInput;
  const images = imagesProblem(raw, json);
  if (images !== undefined) return images;
  const options: CliOptions = {
    print: raw.print !== undefined || json,
    json,
    continue: raw.continue === true,
    allowTools: raw.allowTools === true,
    yes: raw.yes === true,
    allowUnsandboxed: raw.allowUnsandboxed === true,
  };
  if (raw.plan === true) options.plan = true;
  if (raw.sandbox !== undefined) options.sandbox = raw.sandbox;
  if (typeof raw.print === "string") options.prompt = raw.print;
  else if (positional !== undefined) options.prompt = positional;
  if (raw.model !== undefined) options.model = raw.model.trim();
  if (raw.session !== undefined) options.session = raw.session;
  if (raw.resume !== undefined) options.resume = raw.resume === true ? true : raw.resume.trim();
  if (maxTurns !== undefined) options.maxTurns = maxTurns;
  if (fork !== undefined) options.fork = fork;
  if (raw.inputFormat === "stream-json") options.inputFormat = "stream-json";
  if (raw.image !== undefined) options.images = raw.image;
  return options;
}

/** Why `--image` cannot be used here: it goes with the one prompt of -p or --json. */
function imagesProblem(raw: RawOptions, json: boolean): string | undefined {
  if (raw.image === undefined) return undefined;
  if (raw.image.some((file) => file.trim() === "")) return "--image needs a file: --image screenshot.png";
  if (raw.print === undefined && !json)
    return '--image goes with -p or --json (panto -p "PROMPT" --image FILE); in the interactive session, write @FILE in the prompt';
  if (raw.inputFormat === "stream-json")
    return "--input-format stream-json takes images as image blocks in its messages, not --image";
  return undefined;
}

/** Why `--input-format stream-json` cannot run with these options: its prompts come from stdin, its answers as JSON. */
function streamInputProblem(
  raw: RawOptions,
  json: boolean,
  positional: string | undefined,
): string | undefined {
  if (raw.inputFormat !== "stream-json") return undefined;
  if (!json)
    return "--input-format stream-json answers with JSON events: add --json (or --output-format stream-json)";
  if (positional !== undefined || typeof raw.print === "string")
    return "--input-format stream-json reads every prompt from stdin, one JSON message a line: give no prompt on the command line";
  return undefined;
}
