import { fileURLToPath } from "node:url";
import type { ContentBlock } from "@agentclientprotocol/sdk";
import type { PromptContent } from "../agent/index.js";
import type { ImageBlock, TextBlock } from "../core/index.js";
import { parseSlashCommand } from "../runtime/command-registry.js";
import type { UserInput } from "../runtime/turn-result.js";

/** What the user sent, as the run takes it (see `UserInput`); or why panto cannot take it. */
export type AcpInput = { type: "input"; input: UserInput } | { type: "unsupported"; message: string };

/** What the user sent: a slash command, or a prompt (its text and images) for the model. */
export type PromptInput =
  | { type: "command"; name: string; args: string }
  | { type: "prompt"; content: PromptContent }
  | { type: "unsupported"; message: string };

/**
 * The blocks of a `session/prompt` as a slash command or the content the model gets (`toUserInput`
 * read as `run.submit` reads it, but for `!COMMAND` and `@PATH`, which need the run).
 */
export function toPromptInput(blocks: readonly ContentBlock[]): PromptInput {
  const given = toUserInput(blocks);
  if (given.type === "unsupported") return given;
  const { text, blocks: attached = [], images = [] } = given.input;
  if (attached.length === 0 && images.length === 0) {
    const command = parseSlashCommand(text);
    if (command !== undefined) return { type: "command", ...command };
  }
  const full = attached.length === 0 ? text : `${text}\n\n${attached.join("\n\n")}`;
  const content: Array<TextBlock | ImageBlock> = full === "" ? [] : [{ type: "text", text: full }];
  return { type: "prompt", content: [...content, ...images] };
}

/**
 * Turns the blocks of a `session/prompt` into panto's input. Text blocks are joined as written; a
 * `resource_link` becomes a mention of the file (`@/abs/path`, or the link for other schemes) the
 * model can read; an embedded `resource` (the editor's text of a file, selection included) becomes
 * a mention in place plus its text in a `<file path="...">` block after the prompt, as `@path`
 * attaches files in the terminal; an image (inline or as a resource) is passed to the model as is.
 * Text the user typed alone is read as the terminal reads it (a slash command, `!COMMAND`,
 * `@PATH`); text with the editor's mentions in it is sent as composed (a slash command still runs).
 */
export function toUserInput(blocks: readonly ContentBlock[]): AcpInput {
  const parts: string[] = [];
  const attached: string[] = [];
  const images: ImageBlock[] = [];
  let composed = false;
  for (const block of blocks) {
    switch (block.type) {
      case "text":
        parts.push(block.text);
        break;
      case "image":
        images.push({ type: "image", mediaType: block.mimeType, data: block.data });
        break;
      case "resource_link":
        composed = true;
        parts.push(mention(block.uri, block.name));
        break;
      case "resource": {
        composed = true;
        const { resource } = block;
        if ("text" in resource) {
          parts.push(mention(resource.uri));
          attached.push(`<file path="${pathOf(resource.uri)}">\n${resource.text}\n</file>`);
        } else if (resource.mimeType?.startsWith("image/") === true)
          images.push({ type: "image", mediaType: resource.mimeType, data: resource.blob });
        else parts.push(`${mention(resource.uri)} (binary, not attached)`);
        break;
      }
      case "audio":
        return { type: "unsupported", message: "panto does not take audio; send text or images" };
    }
  }
  const text = parts.join("").trim();
  return { type: "input", input: { text, blocks: attached, images, ...(composed ? { composed } : {}) } };
}

/**
 * A command's options given as data in the prompt's `_meta` rather than as words: for `/compact`,
 * `_meta["panto/compact"].force === true` is `/compact --force`. Anything else is left as it is.
 */
export function withCommandOptions(input: AcpInput, meta: Record<string, unknown> | undefined): AcpInput {
  if (input.type !== "input") return input;
  const { blocks = [], images = [] } = input.input;
  const command = blocks.length + images.length === 0 ? parseSlashCommand(input.input.text) : undefined;
  if (command?.name !== "compact") return input;
  const options = meta?.["panto/compact"];
  const force =
    typeof options === "object" && options !== null && "force" in options && options.force === true;
  if (!force || /(?:^|\s)--force(?:\s|$)/.test(command.args)) return input;
  const args = command.args === "" ? "--force" : `--force ${command.args}`;
  return { type: "input", input: { ...input.input, text: `/compact ${args}` } };
}

/** A file URI as a path the tools take; any other URI as it is. */
function pathOf(uri: string): string {
  if (!uri.startsWith("file://")) return uri;
  try {
    return fileURLToPath(uri);
  } catch {
    return uri;
  }
}

function mention(uri: string, name?: string): string {
  const path = pathOf(uri);
  if (path !== uri || !uri.includes(":")) return ` @${path} `;
  return ` [${name ?? uri}](${uri}) `;
}
