import type {
  AssistantMessage,
  CompactionTrigger,
  ImageBlock,
  StopReason,
  TextBlock,
  ThinkingBlock,
  ToolCallBlock,
  ToolResultBlock,
} from "../core/index.js";
import { activeBranch, type TreeLink } from "./active-branch.js";
import { isObject } from "./detect-format.js";
import type { ParsedSource, SourceLine } from "./import-types.js";
import { asArguments, asText, blockPlaceholder, imagePlaceholder, toUsage } from "./source-blocks.js";
import { SourceReader } from "./source-reader.js";

type Json = Record<string, unknown>;

const STOP_REASONS: Readonly<Record<string, StopReason>> = {
  end_turn: "stop",
  stop_sequence: "stop",
  tool_use: "tool-use",
  max_tokens: "length",
  refusal: "content-filter",
};

/** The uuid links of the main conversation (subagent sidechains are chains of their own). */
function links(lines: readonly SourceLine[]): { links: TreeLink[]; leaf?: string } {
  const found: TreeLink[] = [];
  let leaf: string | undefined;
  for (const line of lines) {
    if (!("value" in line) || typeof line.value.uuid !== "string" || line.value.isSidechain === true)
      continue;
    const value = line.value;
    // A compact boundary starts a new chain; its logical parent carries the conversation on.
    const parent = typeof value.parentUuid === "string" ? value.parentUuid : value.logicalParentUuid;
    found.push({ id: value.uuid as string, ...(typeof parent === "string" ? { parent } : {}) });
    leaf = value.uuid as string;
  }
  return { links: found, ...(leaf === undefined ? {} : { leaf }) };
}

/** Reads a Claude Code session file (`~/.claude/projects/<project>/<session id>.jsonl`). */
export function parseClaudeCode(lines: readonly SourceLine[]): ParsedSource {
  const tree = links(lines);
  const onBranch = activeBranch(tree.links, tree.leaf);
  const state = new ClaudeReader();
  for (const line of lines) state.read(line, onBranch);
  return state.result();
}

class ClaudeReader extends SourceReader {
  readonly toolNames = new Map<string, string>();
  model: string | undefined;
  /** The trigger of a compact boundary whose summary message is still to come. */
  pendingTrigger: CompactionTrigger | undefined;

  read(line: SourceLine, onBranch: ReadonlySet<string>): void {
    if (!("value" in line)) {
      this.note(line.line, "unparsable line", line.invalid, true);
      return;
    }
    const value = line.value;
    if (typeof value.uuid === "string" && !onBranch.has(value.uuid)) {
      const why = value.isSidechain === true ? "sidechain (subagent) entry" : "entry off the active branch";
      this.note(line.line, `${String(value.type)} ${why}`, JSON.stringify(value), false);
      return;
    }
    if (typeof value.sessionId === "string") this.sourceId ??= value.sessionId;
    if (typeof value.cwd === "string") this.sourceCwd ??= value.cwd;
    if (value.type === "user") this.user(line.line, value);
    else if (value.type === "assistant") this.assistant(line.line, value);
    else if (value.type === "system" && value.subtype === "compact_boundary") {
      const metadata = isObject(value.compactMetadata) ? value.compactMetadata : {};
      this.pendingTrigger = metadata.trigger === "auto" ? "overflow" : "manual";
    } else {
      const known = value.type === "system" || value.type === "summary";
      this.note(line.line, String(value.type), JSON.stringify(value), !known);
    }
  }

  constructor() {
    super("claude-code");
  }

  protected foundModel(): string | undefined {
    return this.model;
  }

  private user(line: number, value: Json): void {
    const message = isObject(value.message) ? value.message : {};
    const content =
      typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;
    const blocks = Array.isArray(content) ? content.filter(isObject) : [];
    if (value.isCompactSummary === true) {
      const summary = blocks.map((block) => (typeof block.text === "string" ? block.text : "")).join("\n");
      this.items.push({ kind: "compaction", summary, trigger: this.pendingTrigger ?? "manual", line });
      this.pendingTrigger = undefined;
      return;
    }
    const results: ToolResultBlock[] = [];
    const said: Array<TextBlock | ImageBlock> = [];
    for (const block of blocks) {
      if (block.type === "tool_result") results.push(this.toolResult(block));
      else said.push(userBlock(block));
    }
    if (results.length > 0)
      this.items.push({ kind: "message", line, message: { role: "tool", content: results } });
    if (said.length > 0) this.items.push({ kind: "message", line, message: { role: "user", content: said } });
  }

  private toolResult(block: Json): ToolResultBlock {
    const id = String(block.tool_use_id ?? "");
    const inner = typeof block.content === "string" ? [{ type: "text", text: block.content }] : block.content;
    const content = (Array.isArray(inner) ? inner.filter(isObject) : []).map(userBlock);
    return {
      type: "tool-result",
      toolCallId: id,
      toolName: this.toolNames.get(id) ?? "unknown",
      content,
      isError: block.is_error === true,
    };
  }

  private assistant(line: number, value: Json): void {
    const message = isObject(value.message) ? value.message : {};
    const model = typeof message.model === "string" ? message.model : "unknown";
    // Claude Code's own stand-ins ("API Error: ...", "No response requested.") were never a model's answer.
    if (model === "<synthetic>" || value.isApiErrorMessage === true) {
      this.note(line, "synthetic assistant message", JSON.stringify(value), false);
      return;
    }
    this.model = `anthropic/${model}`;
    const blocks = Array.isArray(message.content) ? message.content.filter(isObject) : [];
    const content = blocks.flatMap((block) => this.assistantBlock(block));
    const usage = isObject(message.usage)
      ? toUsage({
          input: message.usage.input_tokens,
          cacheRead: message.usage.cache_read_input_tokens,
          cacheWrite: message.usage.cache_creation_input_tokens,
          output: message.usage.output_tokens,
        })
      : undefined;
    const stop = typeof message.stop_reason === "string" ? STOP_REASONS[message.stop_reason] : undefined;
    const answer: AssistantMessage = {
      role: "assistant",
      content,
      provider: "anthropic",
      api: "anthropic-messages",
      model,
      stopReason: stop ?? (content.some((block) => block.type === "tool-call") ? "tool-use" : "stop"),
      ...(usage === undefined ? {} : { usage }),
    };
    this.items.push({ kind: "message", line, message: answer });
  }

  private assistantBlock(block: Json): Array<TextBlock | ThinkingBlock | ToolCallBlock> {
    switch (block.type) {
      case "text":
        return typeof block.text === "string" && block.text !== ""
          ? [{ type: "text", text: block.text }]
          : [];
      case "thinking":
        return [
          {
            type: "thinking",
            text: asText(block.thinking ?? ""),
            ...(typeof block.signature === "string" && block.signature !== ""
              ? { signature: block.signature }
              : {}),
          },
        ];
      case "redacted_thinking":
        return [{ type: "thinking", text: "", redacted: asText(block.data ?? "") }];
      case "tool_use": {
        const id = String(block.id ?? "");
        const name = String(block.name ?? "unknown");
        this.toolNames.set(id, name);
        return [{ type: "tool-call", id, name, arguments: asArguments(block.input) }];
      }
      default:
        return [blockPlaceholder(`${String(block.type)} block`)];
    }
  }
}

/** A user (or tool result) content block: text stays text, an image or a document becomes a placeholder. */
function userBlock(block: Json): TextBlock | ImageBlock {
  if (block.type === "text") return { type: "text", text: asText(block.text ?? "") };
  if (block.type === "image") {
    const source = isObject(block.source) ? block.source : {};
    const data = typeof source.data === "string" ? source.data : undefined;
    return imagePlaceholder(typeof source.media_type === "string" ? source.media_type : "image", data);
  }
  return blockPlaceholder(`${String(block.type)} block`);
}
