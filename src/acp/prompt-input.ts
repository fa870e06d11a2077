import { fileURLToPath } from "node:url";
import type { ContentBlock } from "@agentclientprotocol/sdk";
import type { PromptContent } from "../agent/index.js";
import type { ImageBlock, TextBlock } from "../core/index.js";
import { parseSlashCommand } from "../runtime/command-registry.js";

/** What the user sent: a slash command, or a prompt (its text and images) for the model. */
export type PromptInput =
  | { type: "command"; name: string; args: string }
  | { type: "prompt"; content: PromptContent }
  | { type: "unsupported"; message: string };

/**
 * Turns the blocks of a `session/prompt` into panto's input. Text blocks are joined as written; a
 * `resource_link` becomes a mention of the file (`@/abs/path`, or the link for other schemes) the
 * model can read; an embedded `resource` (the editor's text of a file, selection included) becomes
 * a mention in place plus its text in a `<file path="...">` block after the prompt, as `@path`
 * attaches files in the terminal; an image (inline or as a resource) is passed to the model as is.
 * A prompt whose text is a slash command runs the command.
 */
export function toPromptInput(blocks: readonly ContentBlock[]): PromptInput {
  const parts: string[] = [];
  const attached: string[] = [];
  const images: ImageBlock[] = [];
  for (const block of blocks) {
    switch (block.type) {
      case "text":
        parts.push(block.text);
        break;
      case "image":
        images.push({ type: "image", mediaType: block.mimeType, data: block.data });
        break;
      case "resource_link":
        parts.push(mention(block.uri, block.name));
        break;
      case "resource": {
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
  if (images.length === 0 && attached.length === 0) {
    const command = parseSlashCommand(text);
    if (command !== undefined) return { type: "command", ...command };
  }
  const full = attached.length === 0 ? text : `${text}\n\n${attached.join("\n\n")}`;
  const content: Array<TextBlock | ImageBlock> = full === "" ? [] : [{ type: "text", text: full }];
  return { type: "prompt", content: [...content, ...images] };
}

/**
 * A command's options given as data in the prompt's `_meta` rather than as words: for `/compact`,
 * `_meta["panto/compact"].force === true` is `/compact --force`. Anything else is left as it is.
 */
export function withCommandOptions(
  input: PromptInput,
  meta: Record<string, unknown> | undefined,
): PromptInput {
  if (input.type !== "command" || input.name !== "compact") return input;
  const options = meta?.["panto/compact"];
  const force =
    typeof options === "object" && options !== null && "force" in options && options.force === true;
  if (!force || /(?:^|\s)--force(?:\s|$)/.test(input.args)) return input;
  return { ...input, args: input.args === "" ? "--force" : `--force ${input.args}` };
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
