import {
  type AssistantMessage,
  type ImageBlock,
  imagePlaceholder,
  type Message,
  type TextBlock,
  type ToolResultMessage,
} from "../core/index.js";
import { quoteTranscriptText } from "./quote-transcript-text.js";

/**
 * Renders messages as the plain-text transcript the compaction model summarises. Each entry starts
 * with a role marker: `[User]:`, `[Assistant]:`, `[Assistant thinking]:`, `[Assistant tool calls]:`
 * (one call a line: name and JSON arguments) and `[Tool result]:` (tool name, and `(error)` for a
 * failed call). An image becomes one line naming it, never its bytes: `[image: shot.png, image/png,
 * 1280x800, 312 KB]` (see imagePlaceholder). Nothing is truncated (spec v1).
 *
 * Everything that comes from the conversation (text, tool names, arguments, media types) is quoted
 * by {@link quoteTranscriptText}: a line inside it that looks like a role marker gets a leading
 * backslash and an envelope tag gets `&lt;`, so only the serialiser's own markers start a turn.
 */
export function serializeTranscript(messages: readonly Message[]): string {
  const transcript: Transcript = { chunks: [], entries: [], entryChars: 0 };
  for (const message of messages) {
    if (message.role === "user") addEntry(transcript, `[User]: ${renderParts(message.content)}`);
    else if (message.role === "assistant") renderAssistant(message, transcript);
    else renderToolResults(message, transcript);
  }
  closeChunk(transcript);
  return transcript.chunks.join(ENTRY_SEPARATOR);
}

const ENTRY_SEPARATOR = "\n\n";

/**
 * About how much text the entries of one chunk hold before they are joined into one flat string.
 * A long session has hundreds of thousands of entries; held until the end, every one of them would
 * be copied again by each young-generation collection on the way. Joined a megabyte at a time, only
 * the open chunk's entries stay alive, and the chunks themselves are large objects the collector
 * never copies.
 */
const CHUNK_CHARS = 1 << 20;

/** The transcript so far: finished chunks, and the entries of the open one. */
interface Transcript {
  chunks: string[];
  entries: string[];
  entryChars: number;
}

function addEntry(transcript: Transcript, entry: string): void {
  transcript.entries.push(entry);
  transcript.entryChars += entry.length;
  if (transcript.entryChars >= CHUNK_CHARS) closeChunk(transcript);
}

/** Joins the open chunk's entries; joining the chunks with the same separator gives the same text. */
function closeChunk(transcript: Transcript): void {
  if (transcript.entries.length === 0) return;
  transcript.chunks.push(transcript.entries.join(ENTRY_SEPARATOR));
  transcript.entries = [];
  transcript.entryChars = 0;
}

function renderAssistant(message: AssistantMessage, transcript: Transcript): void {
  let calls = "";
  for (const block of message.content) {
    if (block.type === "text") addEntry(transcript, `[Assistant]: ${quoteTranscriptText(block.text)}`);
    else if (block.type === "thinking") {
      const text = thinkingText(block);
      if (text !== "") addEntry(transcript, `[Assistant thinking]: ${text}`);
    } else calls += `\n${quoteTranscriptText(`${block.name} ${JSON.stringify(block.arguments)}`)}`;
  }
  if (calls !== "") addEntry(transcript, `[Assistant tool calls]:${calls}`);
}

function thinkingText(block: { text: string; redacted?: string }): string {
  if (block.text.trim() !== "") return quoteTranscriptText(block.text);
  return block.redacted === undefined ? "" : "[redacted]";
}

function renderToolResults(message: ToolResultMessage, transcript: Transcript): void {
  for (const block of message.content) {
    const flag = block.isError ? " (error)" : "";
    addEntry(
      transcript,
      `[Tool result]: ${quoteTranscriptText(block.toolName)}${flag}\n${renderParts(block.content)}`,
    );
  }
}

function renderParts(parts: ReadonlyArray<TextBlock | ImageBlock>): string {
  const first = parts[0];
  if (parts.length === 1 && first !== undefined) return renderPart(first);
  let rendered = "";
  for (let index = 0; index < parts.length; index++) {
    rendered += `${index === 0 ? "" : "\n"}${renderPart(parts[index] as TextBlock | ImageBlock)}`;
  }
  return rendered;
}

function renderPart(part: TextBlock | ImageBlock): string {
  return part.type === "text" ? quoteTranscriptText(part.text) : quoteTranscriptText(imagePlaceholder(part));
}
