import type { PromptContent } from "../agent/index.js";
import { type ImageBlock, optional } from "../core/index.js";
import { imagesRefused } from "../providers/with-image-check.js";
import { parseSlashCommand } from "./command-registry.js";
import { attachFiles, attachImageFiles } from "./input/attach-files.js";
import { runShellEscape } from "./input/shell-escape.js";
import type { RunContext } from "./run-context.js";
import type { TurnResult, UserInput } from "./turn-result.js";

/**
 * Runs one input of the user's, whichever front-end took it: a slash command, `!COMMAND` (run
 * directly, its output added to the conversation), or a prompt for the model with its `@PATH`
 * files attached, then stdin and the front-end's blocks and images; --max-turns limits its model
 * requests. What happens meanwhile is on the run's events; how it ended is the result.
 */
export async function submitInput(
  run: RunContext,
  given: UserInput | string,
  signal?: AbortSignal,
): Promise<TurnResult> {
  const input = typeof given === "string" ? { text: given } : given;
  const refusal = inputRefusal(input);
  if (refusal !== undefined) return refusal;
  const command = commandOf(input);
  if (command !== undefined) {
    const outcome = await run.runCommand(command, signal);
    const name = run.commands.find(command.name)?.name ?? command.name;
    return { type: "command", name, args: command.args, outcome };
  }
  const shell = shellCommandOf(input);
  if (shell !== undefined) {
    const result = await runShellEscape(run, shell, signal ?? new AbortController().signal);
    return { type: "shell", command: shell, output: result.output, isError: result.isError };
  }
  return await sendPrompt(run, input, signal);
}

/**
 * Why the input cannot run at all, found before anything starts (print mode asks before setup): a
 * command or `!COMMAND` given stdin as well, or `!` without a command.
 */
export function inputRefusal(input: UserInput): Extract<TurnResult, { type: "refused" }> | undefined {
  const shell = shellCommandOf(input);
  if (shell === "") return refused("! needs a command, e.g. !git status");
  if (input.stdin === undefined) return undefined;
  if (commandOf(input) !== undefined)
    return refused(
      `${input.text.trim().split(/\s/)[0]} is a command and takes no piped input; send the input with a prompt (panto -p "PROMPT"), or without the pipe`,
    );
  if (shell !== undefined)
    return refused(
      `!${shell.split(/\s/)[0]} runs a shell command and takes no piped input; pipe into the command itself (panto -p "!CMD < FILE"), or send the input with a prompt`,
    );
  return undefined;
}

/** The slash command the input is: its text alone (nothing attached) parsed as one. */
function commandOf(input: UserInput): { name: string; args: string } | undefined {
  if (attachesMore(input)) return undefined;
  return parseSlashCommand(input.text);
}

/** Blocks, images or image files come with the text: it is a prompt, never a command. */
function attachesMore(input: UserInput): boolean {
  return (input.blocks?.length ?? 0) + (input.images?.length ?? 0) + (input.imageFiles?.length ?? 0) > 0;
}

/** `!COMMAND`'s command (trimmed; "" for a bare `!`), for typed text with nothing attached. */
function shellCommandOf(input: UserInput): string | undefined {
  if (input.composed === true || attachesMore(input)) return undefined;
  const text = input.text.trimStart();
  return text.startsWith("!") ? text.slice(1).trim() : undefined;
}

async function sendPrompt(run: RunContext, input: UserInput, signal?: AbortSignal): Promise<TurnResult> {
  let text = input.text;
  let files: readonly string[] = [];
  const given = await checkGivenImages(input.images ?? []);
  if (!given.ok) return refused(given.error);
  const images: ImageBlock[] = given.images;
  if (input.composed !== true) {
    // @PATH is read in what the user typed only: piped input and an editor's blocks go as they came.
    const attached = await attachFiles(input.text, run.cwd, run.toolSandbox);
    if (!attached.ok) return refused(attached.error);
    text = attached.text;
    files = attached.files;
    images.push(...attached.images);
  }
  if (input.imageFiles !== undefined) {
    const attached = await attachImageFiles(input.imageFiles, run.cwd, run.toolSandbox);
    if (!attached.ok) return refused(attached.error);
    images.push(...attached.images);
  }
  const client = run.modelClient();
  // Refused before the prompt is written or sent: the session stays as it was.
  if (images.length > 0 && client.acceptsImages === false) return refused(imagesRefused(client.id));
  run.events.emit({ type: "prompt-sent", files });
  if (input.stdin !== undefined) text = withPipedInput(text, input.stdin);
  const blocks = input.blocks ?? [];
  const full = blocks.length === 0 ? text : `${text}\n\n${blocks.join("\n\n")}`;
  // Content given as blocks (an editor's) goes as blocks: empty text is then no block at all.
  const content: PromptContent | string =
    images.length === 0 && input.blocks === undefined && input.images === undefined
      ? full
      : [...(full === "" ? [] : [{ type: "text" as const, text: full }]), ...images];
  const result = await run.agent.prompt(content, {
    ...optional("signal", signal),
    ...optional("maxRequests", run.maxTurns),
  });
  // The context warnings the turn raised are reported before its end (and a status line after it).
  await run.contextWatch.settled();
  if (result.ok)
    return {
      type: "answered",
      text: result.text,
      files,
      ...(result.stopped === "max-requests" ? { maxTurnsReached: true as const } : {}),
    };
  return {
    type: "prompt-failed",
    code: result.error.code,
    message: result.error.message,
    ...optional("hint", result.hint),
    ...(result.keptInterrupted === true ? { keptInterrupted: true } : {}),
  };
}

/**
 * The images a front-end handed over (stream-json, ACP), each checked as a file would be: a real
 * PNG, JPEG, GIF or WebP header (its type taken from there) and within the limits; the first that
 * is not is refused, by its place.
 */
async function checkGivenImages(
  images: readonly ImageBlock[],
): Promise<{ ok: true; images: ImageBlock[] } | { ok: false; error: string }> {
  if (images.length === 0) return { ok: true, images: [] };
  const { imageFromBytes } = await import("../tools/image-from-bytes.js");
  const checked: ImageBlock[] = [];
  for (const [index, image] of images.entries()) {
    try {
      const read = imageFromBytes(Buffer.from(image.data, "base64"), image.name ?? `image ${index + 1}`);
      checked.push({ ...image, mediaType: read.mediaType });
    } catch (error) {
      return { ok: false, error: `${(error as Error).message}; nothing was sent` };
    }
  }
  return { ok: true, images: checked };
}

/** The prompt, then the piped input as one tagged block after it (as Codex does; Claude Code sends both too). */
export function withPipedInput(prompt: string, piped: string): string {
  return `${prompt}\n\n<stdin>\n${piped}\n</stdin>`;
}

function refused(message: string): Extract<TurnResult, { type: "refused" }> {
  return { type: "refused", code: "usage", message };
}
