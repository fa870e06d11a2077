import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { quoteTranscriptText, serializeTranscript } from "../../src/compaction/index.js";
import { type ImageBlock, imagePlaceholder, type Message, type TextBlock } from "../../src/core/index.js";
import { looseMessages } from "./message-arbitrary.js";

/**
 * serializeTranscript written the plain way: one string per entry, joined by blank lines. The
 * serialiser appends to one string instead; the text must be the same to the byte.
 */
function referenceTranscript(messages: readonly Message[]): string {
  const entries: string[] = [];
  for (const message of messages) {
    if (message.role === "user") entries.push(`[User]: ${referenceParts(message.content)}`);
    else if (message.role === "assistant") {
      const calls: string[] = [];
      for (const block of message.content) {
        if (block.type === "text") entries.push(`[Assistant]: ${quoteTranscriptText(block.text)}`);
        else if (block.type === "thinking") {
          if (block.text.trim() !== "")
            entries.push(`[Assistant thinking]: ${quoteTranscriptText(block.text)}`);
          else if (block.redacted !== undefined) entries.push("[Assistant thinking]: [redacted]");
        } else calls.push(quoteTranscriptText(`${block.name} ${JSON.stringify(block.arguments)}`));
      }
      if (calls.length > 0) entries.push(`[Assistant tool calls]:\n${calls.join("\n")}`);
    } else {
      for (const block of message.content) {
        const flag = block.isError ? " (error)" : "";
        entries.push(
          `[Tool result]: ${quoteTranscriptText(block.toolName)}${flag}\n${referenceParts(block.content)}`,
        );
      }
    }
  }
  return entries.join("\n\n");
}

function referenceParts(parts: ReadonlyArray<TextBlock | ImageBlock>): string {
  return parts
    .map((part) =>
      part.type === "text" ? quoteTranscriptText(part.text) : quoteTranscriptText(imagePlaceholder(part)),
    )
    .join("\n");
}

describe("serializeTranscript against the plain join of its entries", () => {
  it("renders the same text for random messages of every kind", () => {
    fc.assert(
      fc.property(looseMessages, (messages) => {
        expect(serializeTranscript(messages)).toBe(referenceTranscript(messages));
      }),
      { numRuns: 500 },
    );
  });

  it("renders nothing for no messages and a long session the same way", () => {
    expect(serializeTranscript([])).toBe("");
    const long = fc.sample(looseMessages, { numRuns: 200, seed: 11 }).flat();
    expect(serializeTranscript(long)).toBe(referenceTranscript(long));
  });

  it("renders megabytes of tool output, joined a chunk at a time, the same way", () => {
    const output = (seed: number) => `line ${seed} of build output\n`.repeat(12_000);
    const messages: Message[] = [];
    for (let index = 0; index < 12; index++) {
      messages.push(
        { role: "user", content: [{ type: "text", text: `run ${index}` }] },
        {
          role: "tool",
          content: [
            { type: "tool-result", toolCallId: `c${index}`, toolName: "bash", isError: false, content: [] },
            {
              type: "tool-result",
              toolCallId: `d${index}`,
              toolName: "bash",
              isError: index % 2 === 0,
              content: [{ type: "text", text: output(index) }],
            },
          ],
        },
      );
    }
    const transcript = serializeTranscript(messages);
    expect(transcript.length).toBeGreaterThan(3_000_000);
    expect(transcript).toBe(referenceTranscript(messages));
  });
});
