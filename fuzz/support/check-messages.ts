import type { ContentBlock, Message } from "../../src/core/index.js";
import { invariant } from "../engine/fuzz-target.js";

const BLOCKS_BY_ROLE: Record<Message["role"], ReadonlySet<string>> = {
  user: new Set(["text", "image"]),
  assistant: new Set(["text", "thinking", "tool-call"]),
  tool: new Set(["tool-result"]),
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Checks that a block has the fields its type promises (what every adapter, the estimator and the
 * transcript serialiser rely on without checking again).
 */
export function checkBlock(block: ContentBlock, where: string): void {
  const fields = block as unknown as Record<string, unknown>;
  const text = (key: string): void =>
    invariant(typeof fields[key] === "string", `${where}: ${block.type} block whose ${key} is not text`);
  switch (block.type) {
    case "text":
    case "thinking":
      text("text");
      return;
    case "image":
      text("mediaType");
      text("data");
      return;
    case "tool-call":
      text("id");
      text("name");
      invariant(isRecord(fields.arguments), `${where}: tool-call block whose arguments are not an object`);
      return;
    case "tool-result":
      text("toolCallId");
      text("toolName");
      invariant(
        typeof fields.isError === "boolean",
        `${where}: tool-result block whose isError is not a boolean`,
      );
      invariant(Array.isArray(fields.content), `${where}: tool-result block whose content is not a list`);
      for (const inner of block.content) {
        invariant(isRecord(inner), `${where}: tool-result content that is not a block`);
        invariant(
          inner.type === "text" || inner.type === "image",
          `${where}: tool-result holding a ${String(inner.type)} block`,
        );
        checkBlock(inner, where);
      }
      return;
    default:
      invariant(false, `${where}: block of type ${String((block as { type: unknown }).type)}`);
  }
}

/** Checks one message: a known role, a list of blocks that role may hold, each well-formed. */
export function checkMessage(message: Message, where: string): void {
  invariant(isRecord(message), `${where}: message that is not an object`);
  const allowed = BLOCKS_BY_ROLE[message.role];
  invariant(allowed !== undefined, `${where}: message with role ${String(message.role)}`);
  invariant(Array.isArray(message.content), `${where}: message whose content is not a list`);
  for (const block of message.content) {
    invariant(isRecord(block), `${where}: content item that is not a block`);
    invariant(
      allowed.has(block.type),
      `${where}: ${message.role} message holding a ${String(block.type)} block`,
    );
    checkBlock(block, where);
  }
}

/**
 * Spec rule 2 on a replayed context: every tool call is answered exactly once by the tool messages
 * right after its assistant message, and every tool result answers a call of that message.
 */
export function checkToolPairing(messages: readonly Message[]): void {
  let open = new Map<string, number>();
  const close = (where: number): void => {
    for (const [id, answers] of open)
      invariant(answers === 1, `tool call ${id} answered ${answers} times (before message ${where})`);
  };
  messages.forEach((message, index) => {
    if (message.role === "tool") {
      for (const result of message.content) {
        const answers = open.get(result.toolCallId);
        invariant(
          answers !== undefined,
          `tool result ${result.toolCallId} at message ${index} answers no call before it`,
        );
        open.set(result.toolCallId, answers + 1);
      }
      return;
    }
    close(index);
    open = new Map();
    if (message.role === "assistant")
      for (const block of message.content) if (block.type === "tool-call") open.set(block.id, 0);
  });
  close(messages.length);
}
