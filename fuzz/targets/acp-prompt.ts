import type { ContentBlock } from "@agentclientprotocol/sdk";
import { toPromptInput } from "../../src/frontends/acp/prompt-input.js";
import { type FuzzTarget, invariant } from "../engine/fuzz-target.js";
import { loadAcpSchemas } from "../support/acp-schema.js";

const schemas = await loadAcpSchemas();

/**
 * A `session/prompt`'s content blocks (a JSON array, each block first validated by the SDK's own
 * schema, as the SDK validates what an editor sends) -> `toPromptInput`. Invariants: it never
 * throws; audio is refused with a message; a slash command comes back only from text alone (no
 * image, no attached file) and names a command; a prompt's text holds every text block's words and
 * every embedded file's text; every image sent (inline or as an image resource) is passed on.
 */
export const target: FuzzTarget = {
  description: "session/prompt content blocks -> toPromptInput; nothing sent is lost",
  dictionary: [
    '{"type":"text","text":"',
    '{"type":"image","data":"AA==","mimeType":"image/png"}',
    '{"type":"audio","data":"AA==","mimeType":"audio/wav"}',
    '{"type":"resource_link","uri":"file:///tmp/a.ts","name":"a.ts"}',
    '{"type":"resource","resource":{"uri":"file:///tmp/b.ts","text":"',
    '{"type":"resource","resource":{"uri":"file:///tmp/c.png","blob":"AA==","mimeType":"image/png"}}',
    '"uri":"https://example.com/x"',
    '"uri":"file://host/%ZZ"',
    '"/compact"',
    '"/summary edit ',
    '"/pin ',
    "\\n",
    "},",
    "]",
  ],
  maxLength: 4096,
  run(input) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(input.toString("utf8"));
    } catch {
      return;
    }
    if (!Array.isArray(parsed)) return;
    const blocks: ContentBlock[] = [];
    for (const item of parsed) {
      const checked = schemas.contentBlock.safeParse(item);
      if (!checked.success) return;
      blocks.push(checked.data as ContentBlock);
    }
    const result = toPromptInput(blocks);
    const hasAudio = blocks.some((block) => block.type === "audio");
    if (hasAudio) {
      invariant(result.type === "unsupported" && result.message !== "", "audio not refused with a message");
      return;
    }
    invariant(result.type !== "unsupported", "a prompt without audio refused");
    const images = blocks.filter(
      (block) =>
        block.type === "image" ||
        (block.type === "resource" &&
          !("text" in block.resource) &&
          block.resource.mimeType?.startsWith("image/") === true),
    ).length;
    const files = blocks.filter((block) => block.type === "resource" && "text" in block.resource);
    if (result.type === "command") {
      invariant(images === 0 && files.length === 0, "a command taken from a prompt with images or files");
      invariant(result.name !== "", "a command without a name");
      return;
    }
    const text = result.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("");
    const sentImages = result.content.filter((block) => block.type === "image").length;
    invariant(sentImages === images, `${images} images sent, ${sentImages} passed on`);
    for (const block of blocks) {
      if (block.type === "text")
        for (const word of block.text.split(/\s+/))
          invariant(
            word === "" || text.includes(word),
            `a word of a text block is lost: ${JSON.stringify(word)}`,
          );
      if (block.type === "resource" && "text" in block.resource)
        invariant(text.includes(block.resource.text), "an embedded file's text is lost");
    }
  },
};
