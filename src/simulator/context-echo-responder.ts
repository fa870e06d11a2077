import type { FakeReply, RecordedRequest } from "./fake-provider-types.js";

/** Where each wire format keeps the conversation: chat and Messages APIs, Gemini, Responses. */
export const CONVERSATION_KEYS = ["messages", "contents", "input"] as const;

/** Fields that name structure, not content. */
const STRUCTURAL_KEYS = new Set(["role", "type", "id", "tool_call_id", "call_id", "tool_use_id"]);

/**
 * A fake reader with perfect recall: it answers a request with every piece of text its
 * conversation holds before the last message (the question), one per line, tool-call arguments
 * included, and nothing else. So what it "knows" is exactly what the context carries: a test can
 * check that an answer follows the context and not the question. Works for every wire format.
 */
export function contextEchoResponder(): (request: RecordedRequest) => FakeReply {
  return (request) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const key = CONVERSATION_KEYS.find((candidate) => Array.isArray(body[candidate]));
    const conversation = key === undefined ? [] : (body[key] as unknown[]);
    const texts: string[] = [];
    for (const item of conversation.slice(0, -1)) collectText(item, texts);
    return { type: "text", text: texts.join("\n") };
  };
}

/** Every string inside `value`; strings holding a JSON object (tool arguments) are opened too. */
export function collectText(value: unknown, texts: string[]): void {
  if (typeof value === "string") {
    const opened = value.startsWith("{") ? parseObject(value) : undefined;
    if (opened === undefined) texts.push(value);
    else collectText(opened, texts);
    return;
  }
  if (Array.isArray(value)) {
    for (const item of value) collectText(item, texts);
    return;
  }
  if (typeof value !== "object" || value === null) return;
  for (const [field, inner] of Object.entries(value))
    if (!STRUCTURAL_KEYS.has(field)) collectText(inner, texts);
}

function parseObject(text: string): object | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === "object" && parsed !== null ? parsed : undefined;
  } catch {
    return undefined;
  }
}
