import { instructionFilesIn } from "../../agent/index.js";
import { estimateMessageTokens, estimateTokens } from "../../compaction/index.js";
import type { Message } from "../../core/index.js";
import { clearingsInForce, PINNED_NOTES_HEADING } from "../../session/index.js";
import { contextUsage, describeRequestSize } from "../context-usage.js";
import { formatTokens, plural } from "../format-text.js";
import type { RunContext } from "../run-context.js";

interface Part {
  name: string;
  tokens: number;
  detail: string;
}

/**
 * The first part of `/context`: what the next request is made of, part by part (system prompt, tool
 * definitions, summary, pinned notes, messages, tool results), each by the local estimate, then the
 * next request's size as every figure for "the context" gives it, with the share of the window.
 */
export async function describeNextRequest(run: RunContext): Promise<string> {
  const { compaction, messages } = run.session.effectiveContext();
  const definitions = run.tools.map((tool) => tool.definition);
  const pins = run.session.pins();
  const block = compaction?.summary ?? "";
  const pinsAt = pins.length === 0 ? -1 : block.lastIndexOf(PINNED_NOTES_HEADING);
  const summaryText = pinsAt < 0 ? block : block.slice(0, pinsAt);
  const parts: Part[] = [
    { name: "system prompt", tokens: estimateTokens(run.systemPrompt), detail: instructionsDetail(run) },
    {
      name: "tool definitions",
      tokens: estimateTokens(JSON.stringify(definitions)),
      detail: plural(definitions.length, "tool"),
    },
    {
      name: "summary",
      tokens: estimateTokens(summaryText),
      detail:
        compaction === undefined ? "no compaction block" : "the compaction block, restored facts included",
    },
    {
      name: "pinned notes",
      tokens: pinsAt < 0 ? 0 : estimateTokens(block.slice(pinsAt)),
      detail: plural(pins.length, "note"),
    },
    messagePart(
      messages.filter((message) => message.role !== "tool"),
      "messages",
      "user and assistant message",
    ),
    messagePart(
      messages.filter((message) => message.role === "tool"),
      "tool results",
      "tool result message",
    ),
  ];
  const total = parts.reduce((sum, part) => sum + part.tokens, 0);
  const width = Math.max(...parts.map((part) => part.name.length));
  const { size, window } = await contextUsage(run, run.agent.learnedWindow()?.contextWindow);
  return [
    "Next request, by part (local estimate: about 3 bytes a token, on the large side):",
    ...parts.map(
      (part) => `  ${part.name.padEnd(width)}  ${formatTokens(part.tokens).padStart(6)}  ${part.detail}`,
    ),
    `  ${"total".padEnd(width)}  ${formatTokens(total).padStart(6)}`,
    describeRequestSize(size, window),
    ...clearedLine(run),
  ].join("\n");
}

/** What the clearings in force keep out of the context, when any do (the tool results above hold their stubs). */
function clearedLine(run: RunContext): string[] {
  const { clearings, cleared } = clearingsInForce(run.session.activeEntries());
  if (clearings.length === 0) return [];
  return [
    `Cleared: ${plural(cleared.size, "old tool output")} (about ${formatTokens(run.agent.clearedTokens())} tokens) left the context in ${plural(clearings.length, "clearing")}; each stub names its call, recall {"tool_result": ID} reads it back, /unclear takes the latest clearing back.`,
  ];
}

/** "with AGENTS.md", "with 2 AGENTS.md files", or "no AGENTS.md": what the system prompt carries. */
function instructionsDetail(run: RunContext): string {
  const files = instructionFilesIn(run.systemPrompt);
  if (files.length === 0) return "no AGENTS.md";
  return files.length === 1 ? "with AGENTS.md" : `with ${files.length} AGENTS.md files`;
}

function messagePart(messages: readonly Message[], name: string, noun: string): Part {
  return {
    name,
    tokens: messages.reduce((sum, message) => sum + estimateMessageTokens(message), 0),
    detail: plural(messages.length, noun),
  };
}
