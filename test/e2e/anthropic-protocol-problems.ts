/** One message of an Anthropic Messages request body, as far as pairing checks need it. */
interface WireMessage {
  role: string;
  content: Array<{ type: string; id?: string; tool_use_id?: string }>;
}

function toolUseIds(message: WireMessage | undefined): string[] {
  if (message?.role !== "assistant") return [];
  return message.content.flatMap((block) => (block.type === "tool_use" ? [block.id ?? ""] : []));
}

function toolResultIds(message: WireMessage): string[] {
  return message.content.flatMap((block) => (block.type === "tool_result" ? [block.tool_use_id ?? ""] : []));
}

/** Whether every tool_result block comes before every other block, as the API requires. */
function resultsLead(message: WireMessage): boolean {
  const firstOther = message.content.findIndex((block) => block.type !== "tool_result");
  return (
    firstOther === -1 || message.content.slice(firstOther).every((block) => block.type !== "tool_result")
  );
}

function pairingProblems(messages: readonly WireMessage[], index: number): string[] {
  const message = messages[index] as WireMessage;
  const problems: string[] = [];
  const calls = toolUseIds(messages[index - 1]);
  const answers = toolResultIds(message);
  for (const id of calls) {
    if (!answers.includes(id)) problems.push(`message ${index}: tool_use ${id} has no tool_result`);
  }
  for (const [position, id] of answers.entries()) {
    if (!calls.includes(id))
      problems.push(`message ${index}: tool_result ${id} answers no tool_use before it`);
    if (answers.indexOf(id) !== position) problems.push(`message ${index}: tool_result ${id} repeated`);
  }
  if (!resultsLead(message)) problems.push(`message ${index}: tool_result blocks do not come first`);
  return problems;
}

/**
 * What makes an Anthropic Messages request invalid, as the real API checks it: roles other than
 * user/assistant, roles that do not alternate starting and ending with the user, a tool_use without
 * its tool_result in the next message, a tool_result without its tool_use, repeated tool ids.
 */
export function anthropicProtocolProblems(body: unknown): string[] {
  const messages = (body as { messages?: WireMessage[] }).messages ?? [];
  const problems: string[] = [];
  if (messages.length === 0) return ["no messages"];
  if (messages[0]?.role !== "user") problems.push("the first message is not the user's");
  if (messages.at(-1)?.role !== "user") problems.push("the last message is not the user's");
  const seen = new Set<string>();
  messages.forEach((message, index) => {
    if (message.role !== "user" && message.role !== "assistant")
      problems.push(`message ${index}: role ${message.role}`);
    if (index > 0 && messages[index - 1]?.role === message.role)
      problems.push(`message ${index}: two ${message.role} messages in a row`);
    if (message.content.length === 0) problems.push(`message ${index}: empty content`);
    for (const id of toolUseIds(message)) {
      if (seen.has(id)) problems.push(`message ${index}: tool_use id ${id} used twice`);
      seen.add(id);
    }
    if (message.role === "user") problems.push(...pairingProblems(messages, index));
    else if (toolResultIds(message).length > 0)
      problems.push(`message ${index}: tool_result from the assistant`);
  });
  return problems;
}
