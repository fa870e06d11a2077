import type { ImageBlock } from "../../core/index.js";
import type { UserInput } from "../../runtime/turn-result.js";

/** A program's answer to a `permission_request`: this call, this tool for the session, or no. */
export type PermissionDecision = "allow" | "allow_always" | "deny";

/** A control request's id, echoed back as it came (Claude Code sends strings; a number is kept a number). */
export type RequestId = string | number;

/** One line of `--input-format stream-json` input, read. */
export type StreamMessage =
  /** `{"type":"user","message":{"role":"user","content":...}}`: one input for the run. */
  | { type: "user"; input: UserInput }
  /** `{"type":"control_request","request_id":ID,"request":{"subtype":"interrupt"}}` */
  | { type: "interrupt"; requestId: RequestId }
  /** A control request of a subtype panto does not take: answered with an error response. */
  | { type: "unsupported-control"; requestId: RequestId; subtype: string }
  /** `{"type":"permission_response","id":ID,"decision":...}` */
  | { type: "permission-response"; id: string; decision: PermissionDecision }
  /** The line is not one of the above: why, for the `error` event naming it. */
  | { type: "malformed"; message: string };

const DECISIONS: readonly string[] = ["allow", "allow_always", "deny"];

/** Reads one line of stream-json input (Claude Code's shapes for user messages and control requests). */
export function parseStreamMessage(line: string): StreamMessage {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return malformed(`not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  if (!isRecord(value)) return malformed("not a JSON object");
  switch (value.type) {
    case "user":
      return userMessage(value.message);
    case "control_request":
      return controlRequest(value);
    case "permission_response":
      return permissionResponse(value);
    case undefined:
      return malformed('no "type" (user, control_request or permission_response)');
    default:
      return malformed(
        `unknown type ${JSON.stringify(value.type)} (panto reads user, control_request and permission_response)`,
      );
  }
}

function userMessage(message: unknown): StreamMessage {
  if (!isRecord(message))
    return malformed('a user message needs "message": {"role": "user", "content": ...}');
  if (message.role !== undefined && message.role !== "user")
    return malformed(`a user message's role must be "user" (got ${JSON.stringify(message.role)})`);
  const { content } = message;
  if (typeof content === "string") return textInput(content, []);
  if (!Array.isArray(content))
    return malformed('"message.content" must be a string or an array of text and image blocks');
  const texts: string[] = [];
  const images: ImageBlock[] = [];
  for (const [index, block] of content.entries()) {
    const read = contentBlock(block, index);
    if (typeof read === "string") return malformed(read);
    if (read.type === "text") texts.push(read.text);
    else images.push(read);
  }
  return textInput(texts.join("\n\n"), images);
}

/** The input, or why there is none: no text and no image. */
function textInput(text: string, images: readonly ImageBlock[]): StreamMessage {
  if (text.trim() === "" && images.length === 0) return malformed("the user message is empty");
  return { type: "user", input: images.length === 0 ? { text } : { text, images } };
}

/** One block of `message.content`: a text block, an image block (base64), or why it cannot be read. */
function contentBlock(block: unknown, index: number): { type: "text"; text: string } | ImageBlock | string {
  const where = `message.content[${index}]`;
  if (!isRecord(block)) return `${where} is not an object`;
  if (block.type === "text") {
    if (typeof block.text !== "string") return `${where} is a text block without a "text" string`;
    return { type: "text", text: block.text };
  }
  if (block.type === "image") {
    const source = block.source;
    if (
      !isRecord(source) ||
      source.type !== "base64" ||
      typeof source.media_type !== "string" ||
      typeof source.data !== "string"
    )
      return `${where} is an image block without "source": {"type": "base64", "media_type", "data"}`;
    return { type: "image", mediaType: source.media_type, data: source.data };
  }
  return `${where} has type ${JSON.stringify(block.type)}; panto takes text and image blocks`;
}

function controlRequest(value: Record<string, unknown>): StreamMessage {
  const requestId = value.request_id;
  if (typeof requestId !== "string" && typeof requestId !== "number")
    return malformed('a control_request needs "request_id"');
  const request = value.request;
  if (!isRecord(request) || typeof request.subtype !== "string")
    return malformed('a control_request needs "request": {"subtype": ...}');
  if (request.subtype === "interrupt") return { type: "interrupt", requestId };
  return { type: "unsupported-control", requestId, subtype: request.subtype };
}

function permissionResponse(value: Record<string, unknown>): StreamMessage {
  const { id, decision } = value;
  if (typeof id !== "string") return malformed('a permission_response needs the request\'s "id"');
  if (typeof decision !== "string" || !DECISIONS.includes(decision))
    return malformed(
      `a permission_response's "decision" must be "allow", "allow_always" or "deny" (got ${JSON.stringify(decision)})`,
    );
  return { type: "permission-response", id, decision: decision as PermissionDecision };
}

function malformed(message: string): StreamMessage {
  return { type: "malformed", message };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
