/**
 * A content part, as Mistral (and some gateways) send `content` instead of a plain string: text
 * parts, and thinking parts whose `thinking` is text or a list of text parts.
 */
export interface ChatContentPart {
  type?: string;
  text?: string | null;
  thinking?: string | ChatContentPart[] | null;
}

/** A message's or delta's `content` split into visible text and reasoning, whichever shape it came in. */
export function splitChatContent(content: string | ChatContentPart[] | null | undefined): {
  text: string;
  thinking: string;
} {
  if (typeof content === "string") return { text: content, thinking: "" };
  let text = "";
  let thinking = "";
  for (const part of Array.isArray(content) ? content : []) {
    if (part.type === "thinking") thinking += textOf(part.thinking);
    else if (typeof part.text === "string") text += part.text;
  }
  return { text, thinking };
}

function textOf(value: string | ChatContentPart[] | null | undefined): string {
  if (typeof value === "string") return value;
  return (Array.isArray(value) ? value : [])
    .map((part) => (typeof part.text === "string" ? part.text : ""))
    .join("");
}
