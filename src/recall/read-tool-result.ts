import { plainCallId, type ToolResultBlock } from "../core/index.js";
import { parseSessionLine } from "../session/index.js";
import type { RecallSource } from "./recall-sources.js";
import { lineEnd, scanLines } from "./scan-lines.js";

/** One tool result found by its call id: where, and its output as text. */
export interface FoundToolResult {
  source: RecallSource;
  result: ToolResultBlock;
  /** The output as the tool returned it: its text blocks joined by newlines, an image as `[image TYPE]`. */
  text: string;
  /** Results with this id in the file (a call id a fake or self-hosted server reused). */
  occurrences: number;
}

/**
 * The output of the tool call `toolCallId`, read from the session files of the lineage (the current
 * one first): the file keeps every result whole, whatever clearing did to the context, so this is
 * the output byte for byte. The latest result with that id in the first file holding one wins.
 * Failing that, an id in the form an API that takes only `[a-zA-Z0-9_-]` showed the model
 * (`plainCallId`: Anthropic's tool_use ids, after a model switch or an import brought other ids)
 * names the result whose recorded id has that form.
 */
export async function findToolResult(
  sources: readonly RecallSource[],
  toolCallId: string,
  signal?: AbortSignal,
): Promise<FoundToolResult | undefined> {
  // Lines holding the id as a tool result's call id, found in the raw bytes before any JSON is parsed.
  const exact = Buffer.from(`"toolCallId":${JSON.stringify(toolCallId)}`, "utf8");
  const found = await findIn(sources, exact, (id) => id === toolCallId, signal);
  if (found !== undefined || plainCallId(toolCallId) !== toolCallId) return found;
  const anyResult = Buffer.from(`"toolCallId":`, "utf8");
  return findIn(sources, anyResult, (id) => id !== toolCallId && plainCallId(id) === toolCallId, signal);
}

async function findIn(
  sources: readonly RecallSource[],
  needle: Buffer,
  matches: (toolCallId: string) => boolean,
  signal: AbortSignal | undefined,
): Promise<FoundToolResult | undefined> {
  for (const source of sources) {
    let latest: ToolResultBlock | undefined;
    let occurrences = 0;
    await scanLines(source.path, { ...(signal === undefined ? {} : { signal }) }, (chunk) => {
      for (let index = 0; index < chunk.starts.length; index++) {
        const start = chunk.starts[index] as number;
        const end = lineEnd(chunk, index);
        if (chunk.bytes.subarray(start, end).indexOf(needle) === -1) continue;
        const parsed = parseSessionLine(chunk.bytes.toString("utf8", start, end));
        if (parsed.kind !== "entry" || parsed.entry.type !== "message") continue;
        const { message } = parsed.entry;
        if (message.role !== "tool") continue;
        const block = message.content.find((item) => matches(item.toolCallId));
        if (block === undefined) continue;
        // A kept copy repeats a result already counted.
        if (parsed.entry.keptBy === undefined) occurrences++;
        latest = block;
      }
    });
    if (latest !== undefined)
      return { source, result: latest, text: outputText(latest), occurrences: Math.max(1, occurrences) };
  }
  return undefined;
}

function outputText(result: ToolResultBlock): string {
  return result.content
    .map((block) => (block.type === "text" ? block.text : `[image ${block.mediaType}]`))
    .join("\n");
}
