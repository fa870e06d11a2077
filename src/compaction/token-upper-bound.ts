import type { ContentBlock, Message } from "../core/index.js";

/**
 * A bound on what any provider can count for a message, from its bytes alone: no tokenizer in use
 * (byte-level BPE, SentencePiece with byte fallback, character-level) spends more than one token on
 * a UTF-8 byte, so a text's tokens are at most its bytes. Unlike the local estimate, which errs large
 * for the tokenizers we know but is still a guess, this holds for every provider; it is far above
 * any real count, and is meant for the uses that need a certain ceiling, both about a provider's own
 * figures: working out a floor for the rest of a rejected request ("the request was R tokens, and
 * everything compaction can remove is at most U, so what remains is at least R - U"), and telling
 * whether a size a rejected summary request's body stated can be that request's at all
 * (`statedSize` in summary-fit.ts). Never to decide, on its own, whether a request is sent.
 */

/** Role markers, separators and a chat template's wrapping around one message, at most. */
export const MESSAGE_FRAMING_BOUND = 32;
/** The wrapping of one tool call or result (id, name, the template's markers), at most. */
export const TOOL_BLOCK_FRAMING_BOUND = 48;
/**
 * One image, at most: providers charge by pixels (Anthropic about 1,600 for a full-size picture,
 * OpenAI up to a few thousand at high detail), never by its base64 bytes.
 */
export const IMAGE_TOKENS_BOUND = 16_000;

/** At most this many tokens for `text`, whatever the tokenizer. */
export function textTokensUpperBound(text: string): number {
  return Buffer.byteLength(text, "utf8");
}

/** At most this many tokens for `message` as any provider renders it (framing included). */
export function messageTokensUpperBound(message: Message): number {
  let tokens = MESSAGE_FRAMING_BOUND;
  for (const block of message.content) tokens += blockTokensUpperBound(block);
  return tokens;
}

function blockTokensUpperBound(block: ContentBlock): number {
  switch (block.type) {
    case "text":
      return textTokensUpperBound(block.text);
    case "image":
      return IMAGE_TOKENS_BOUND;
    case "thinking":
      // The signature and encrypted reasoning travel as opaque bytes; count every one.
      return (
        textTokensUpperBound(block.text) +
        textTokensUpperBound(block.signature ?? "") +
        textTokensUpperBound(block.redacted ?? "")
      );
    case "tool-call":
      // Twice the compact JSON: a provider may re-render the arguments with indentation and spaces.
      return (
        TOOL_BLOCK_FRAMING_BOUND +
        textTokensUpperBound(block.name) +
        textTokensUpperBound(block.id) +
        2 * textTokensUpperBound(JSON.stringify(block.arguments))
      );
    case "tool-result": {
      let tokens = TOOL_BLOCK_FRAMING_BOUND + textTokensUpperBound(block.toolCallId);
      for (const part of block.content) tokens += blockTokensUpperBound(part);
      return tokens;
    }
    case "compaction":
      return textTokensUpperBound(block.summary);
  }
}
