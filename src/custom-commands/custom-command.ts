/** Where a custom command's file was found; the first of these to hold a name wins. */
export type CustomCommandSource = "project" | "claude" | "user";

/** A slash command defined by a Markdown file: a prompt template sent to the model. */
export interface CustomCommand {
  /** The file name without `.md`, lower case: `/name`. */
  name: string;
  /** Front matter `description`, else the body's first line. */
  description: string;
  /** Front matter `argument-hint`, e.g. "[file] [focus]"; "" for none. */
  argumentHint: string;
  /** Front matter `model`: "provider/model" the prompt is sent to instead of the active model. */
  model?: string;
  /** Front matter `allowed-tools`: tools that run without a question while the command's prompt runs. */
  allowedTools?: string[];
  /** The template: `$ARGUMENTS`, `$1`..`$9` and `@path` are filled in when the command runs. */
  body: string;
  /** The file it came from. */
  path: string;
  source: CustomCommandSource;
}

/** A command file that could not be read: the message names the file (and line and key when known). */
export interface CommandFileProblem {
  path: string;
  message: string;
}
