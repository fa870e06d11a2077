import { basename } from "node:path";
import { frontMatterList, frontMatterText, parseFrontMatter } from "../config/index.js";
import type { CommandFileProblem, CustomCommand, CustomCommandSource } from "./custom-command.js";

/** What a command's name may be: what a slash command can be typed as. */
const COMMAND_NAME = /^[a-z][\w-]*$/;

/**
 * Reads one command file's text into a command, or the problem with it: a name that cannot be
 * typed, front matter that is not YAML, a key of the wrong type (the message names the file, the
 * line and the key). A plain function of the text, so it can be fuzzed.
 */
export async function parseCommandFile(
  text: string,
  file: { path: string; source: CustomCommandSource },
): Promise<CustomCommand | CommandFileProblem> {
  const { path, source } = file;
  const name = basename(path).replace(/\.md$/i, "").toLowerCase();
  if (!COMMAND_NAME.test(name))
    return problem(
      path,
      `${JSON.stringify(name)} cannot be a command name (letters, digits, - and _, starting with a letter); the file is not loaded`,
    );
  const parsed = await parseFrontMatter(text);
  if (!parsed.ok) return problem(path, `${parsed.message}; the command is not loaded`, parsed.line);
  const { data, body } = parsed;
  const keys = readKeys(data);
  if ("key" in keys)
    return problem(path, `${keys.message}; the command is not loaded`, keyLine(text, keys.key));
  if (body.trim() === "")
    return problem(path, "the command has no prompt text after its front matter; it is not loaded");
  return {
    name,
    description: keys.description || firstLine(body),
    argumentHint: keys.argumentHint ?? "",
    ...(keys.model === undefined || keys.model === "" ? {} : { model: keys.model }),
    ...(keys.allowedTools === undefined ? {} : { allowedTools: keys.allowedTools }),
    body,
    path,
    source,
  };
}

interface CommandKeys {
  description: string | undefined;
  argumentHint: string | undefined;
  model: string | undefined;
  allowedTools: string[] | undefined;
}

/** The keys panto reads (others, such as Claude Code's, are ignored), or the first of the wrong type. */
function readKeys(data: Record<string, unknown>): CommandKeys | { key: string; message: string } {
  const description = frontMatterText(data, "description");
  if (description instanceof Error) return { key: "description", message: description.message };
  const argumentHint = frontMatterText(data, "argument-hint");
  if (argumentHint instanceof Error) return { key: "argument-hint", message: argumentHint.message };
  const model = frontMatterText(data, "model");
  if (model instanceof Error) return { key: "model", message: model.message };
  const allowedTools = frontMatterList(data, "allowed-tools");
  if (allowedTools instanceof Error) return { key: "allowed-tools", message: allowedTools.message };
  return { description, argumentHint, model, allowedTools };
}

export function isCommandProblem(value: CustomCommand | CommandFileProblem): value is CommandFileProblem {
  return !("body" in value);
}

function problem(path: string, message: string, line?: number): CommandFileProblem {
  return { path, message: `${path}${line === undefined ? "" : `:${line}`}: ${message}` };
}

/** The 1-based line a front matter key is written on (the file's second line at the earliest). */
function keyLine(text: string, key: string): number | undefined {
  const index = text.split(/\r?\n/).findIndex((line, number) => number > 0 && line.startsWith(`${key}:`));
  return index === -1 ? undefined : index + 1;
}

function firstLine(body: string): string {
  const line = body.split(/\r?\n/).find((candidate) => candidate.trim() !== "") ?? "";
  const text = line.replace(/^#+\s*/, "").trim();
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}
