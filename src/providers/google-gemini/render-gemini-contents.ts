import type { Content, Part } from "@google/genai";
import type {
  AssistantMessage,
  EffectiveContext,
  ImageBlock,
  Message,
  TextBlock,
  ToolResultMessage,
} from "../../core/index.js";
import { renderCompactionText } from "../shared/compaction-text.js";
import { groupToolResults } from "../shared/group-tool-results.js";
import { isSyntheticCallId } from "./synthetic-call-id.js";

/**
 * The signature Google documents for function calls whose real signature is unknown (history
 * written by another model), so Gemini 3 does not reject the request.
 */
export const FOREIGN_CALL_SIGNATURE = "skip_thought_signature_validator";

/**
 * Renders the effective context as Gemini `contents`: roles alternate user/model (consecutive
 * messages of one role are merged), every model turn's function calls are answered by one user
 * content holding all their `functionResponse` parts, and the compaction block is user text at
 * the very start. Thought signatures go back on the parts they came with. Keys are written in the
 * order the SDK wrote them (`parts` before `role`; a call's `args`, `id`, `name`), so the body is
 * byte for byte what it sent.
 */
export function renderGeminiContents(context: EffectiveContext): Content[] {
  const contents = mergeSameRole(groupToolResults(context.messages).map(renderMessage));
  if (context.compaction === undefined) return contents;
  const summary: Part = { text: renderCompactionText(context.compaction.summary) };
  const first = contents[0];
  if (first?.role === "user")
    return [{ parts: [summary, ...(first.parts ?? [])], role: "user" }, ...contents.slice(1)];
  return [{ parts: [summary], role: "user" }, ...contents];
}

function renderMessage(message: Message): Content {
  if (message.role === "user") return { parts: message.content.map(renderUserPart), role: "user" };
  if (message.role === "tool") return { parts: renderToolResults(message), role: "user" };
  return { parts: renderAssistant(message), role: "model" };
}

function renderUserPart(block: TextBlock | ImageBlock): Part {
  return block.type === "text"
    ? { text: block.text }
    : { inlineData: { mimeType: block.mediaType, data: block.data } };
}

/**
 * Function responses first (Gemini matches them to the calls by name and order, or by id when the
 * API issued one), then any images the tools returned.
 */
function renderToolResults(message: ToolResultMessage): Part[] {
  const responses: Part[] = message.content.map((result) => {
    const text = result.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n");
    return {
      functionResponse: {
        name: result.toolName,
        response: result.isError ? { error: text } : { output: text },
        ...(isSyntheticCallId(result.toolCallId) ? {} : { id: result.toolCallId }),
      },
    };
  });
  const images = message.content.flatMap((result) =>
    result.content.filter((block): block is ImageBlock => block.type === "image").map(renderUserPart),
  );
  return [...responses, ...images];
}

/**
 * Own messages are replayed part by part: a thinking block with a signature and no text marks
 * where a signature sat on the next part, and goes back there. Thought text without a signature
 * is not needed by the API and is dropped. Another API's thinking is dropped; its first function
 * call gets the documented placeholder signature.
 */
function renderAssistant(message: AssistantMessage): Part[] {
  const own = message.api === "google-gemini";
  const parts: Part[] = [];
  let pending: string | undefined;
  const signed = (part: Part): Part => {
    const signature = pending;
    pending = undefined;
    return signature === undefined ? part : { ...part, thoughtSignature: signature };
  };
  for (const block of message.content) {
    if (block.type === "thinking") {
      if (!own || block.signature === undefined) continue;
      if (block.text === "") pending = block.signature;
      else parts.push({ text: block.text, thought: true, thoughtSignature: block.signature });
    } else if (block.type === "text") {
      if (block.text !== "" || pending !== undefined) parts.push(signed({ text: block.text }));
    } else {
      if (!own && !parts.some((part) => part.functionCall !== undefined)) pending = FOREIGN_CALL_SIGNATURE;
      const id = isSyntheticCallId(block.id) ? {} : { id: block.id };
      parts.push(signed({ functionCall: { args: block.arguments, ...id, name: block.name } }));
    }
  }
  if (pending !== undefined) parts.push({ text: "", thoughtSignature: pending });
  return parts;
}

/** Joins neighbours of one role (a turn killed before its answer leaves two user messages in a row). */
function mergeSameRole(contents: Content[]): Content[] {
  const merged: Content[] = [];
  for (const content of contents) {
    if ((content.parts ?? []).length === 0) continue;
    const last = merged[merged.length - 1];
    if (last !== undefined && last.role === content.role) {
      merged[merged.length - 1] = { ...last, parts: [...(last.parts ?? []), ...(content.parts ?? [])] };
    } else {
      merged.push(content);
    }
  }
  return merged;
}
