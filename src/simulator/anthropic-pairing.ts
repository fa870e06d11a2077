/** One message of an Anthropic Messages request, as far as pairing goes. */
interface WireMessage {
  role?: string;
  content?: unknown;
}

function blocksOf(message: WireMessage | undefined, type: string): Array<Record<string, unknown>> {
  if (!Array.isArray(message?.content)) return [];
  return (message.content as Array<Record<string, unknown>>).filter((block) => block?.type === type);
}

function invalid(message: string): { status: number; body: string } {
  return {
    status: 400,
    body: JSON.stringify({ type: "error", error: { type: "invalid_request_error", message } }),
  };
}

/**
 * The Anthropic API's checks of tool pairing, with its own error texts: every `tool_use` must be
 * answered by a `tool_result` in the next message, and every `tool_result` must answer a
 * `tool_use` of the previous one.
 */
export function anthropicPairingError(body: unknown): { status: number; body: string } | undefined {
  const messages = (body as { messages?: WireMessage[] } | undefined)?.messages ?? [];
  for (const [index, message] of messages.entries()) {
    const uses = blocksOf(message, "tool_use").map((block) => String(block.id));
    const answered = new Set(
      blocksOf(messages[index + 1], "tool_result").map((block) => String(block.tool_use_id)),
    );
    const missing = uses.filter((id) => !answered.has(id));
    if (message.role === "assistant" && missing.length > 0)
      return invalid(
        `messages.${index}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(", ")}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
      );
    const called = new Set(blocksOf(messages[index - 1], "tool_use").map((block) => String(block.id)));
    const results = blocksOf(message, "tool_result");
    const stray = results.findIndex((block) => !called.has(String(block.tool_use_id)));
    if (message.role === "user" && stray !== -1)
      return invalid(
        `messages.${index}.content.${stray}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${String(results[stray]?.tool_use_id)}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`,
      );
  }
  return undefined;
}
