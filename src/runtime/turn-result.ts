import type { ImageBlock } from "../core/index.js";
import type { CommandOutcome } from "./command-outcome.js";

/**
 * What the user gave a run, as every front-end hands it to `RunContext.submit`: what was typed
 * (a slash command, `!COMMAND`, or a prompt whose `@PATH`s are attached), and what came with it.
 */
export interface UserInput {
  /** What the user typed, or (with `composed`) the text a front-end composed. */
  text: string;
  /**
   * What was piped on stdin beside the prompt (print and JSON modes): sent after it as one
   * `<stdin>` block. A slash command or `!COMMAND` takes none (refused).
   */
  stdin?: string;
  /**
   * Text blocks sent after the prompt as they are (an editor's embedded files, already wrapped);
   * with any of these or `images`, the text is a prompt, never a command.
   */
  blocks?: readonly string[];
  images?: readonly ImageBlock[];
  /**
   * Image files to send with the prompt (`-p --image FILE`), relative to the run's directory: read
   * as `@PATH` images are; one that cannot be is refused, naming it, and nothing is sent.
   */
  imageFiles?: readonly string[];
  /**
   * The text holds what a front-end wrote into it (an editor's file mentions): it is sent as it
   * is, with no `!COMMAND` or `@PATH` read in it. A slash command is still one.
   */
  composed?: boolean;
}

/** How one submitted input ended, as data: each front-end maps it to its medium. */
export type TurnResult =
  /** A slash command ran (`name` as registered, aliases resolved): what it did. */
  | { type: "command"; name: string; args: string; outcome: CommandOutcome }
  /** `!COMMAND` ran; the command and its output are now in the conversation. */
  | { type: "shell"; command: string; output: string; isError: boolean }
  /**
   * The model answered (`text`: its final answer); `files` are what `@PATH` attached.
   * `maxTurnsReached`: --max-turns stopped it while the model still wanted to go on.
   */
  | { type: "answered"; text: string; files: readonly string[]; maxTurnsReached?: true }
  /**
   * The model's turn failed (code "aborted": cancelled). `keptInterrupted`: the prompt and the
   * partial answer stay in the context, marked interrupted.
   */
  | { type: "prompt-failed"; code: string; message: string; hint?: string; keptInterrupted?: boolean }
  /** Nothing ran: the input itself was refused (a missing `@PATH`, a bare `!`, a command given stdin). */
  | { type: "refused"; code: "usage"; message: string };
