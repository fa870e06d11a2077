import type { AssistantMessage, TextBlock, ToolResultBlock } from "../core/index.js";
import { isObject } from "./detect-format.js";
import type { ParsedSource, SourceLine } from "./import-types.js";
import { asArguments, asText, blockPlaceholder, imagePlaceholder, toUsage } from "./source-blocks.js";
import { SourceReader } from "./source-reader.js";

type Json = Record<string, unknown>;

/** Item types whose output answers a call (the call's id is `call_id`). */
const OUTPUTS = new Set(["function_call_output", "custom_tool_call_output", "local_shell_call_output"]);

/**
 * Reads a Codex CLI rollout (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`): each line
 * `{timestamp, type, payload}`. The conversation is in the `response_item` lines; `compacted`
 * lines are Codex's compactions; `event_msg` lines repeat the items for its interface (only their
 * token counts are read); `turn_context` names the model. Older rollouts hold bare items.
 */
export function parseCodex(lines: readonly SourceLine[]): ParsedSource {
  const reader = new CodexReader();
  lines.forEach((line, index) => {
    reader.read(line, index === 0);
  });
  return reader.result();
}

class CodexReader extends SourceReader {
  readonly toolNames = new Map<string, string>();
  model = "unknown";
  /** The latest answer, until a token count gives it its usage. */
  lastAnswer: AssistantMessage | undefined;

  read(line: SourceLine, first: boolean): void {
    if (!("value" in line)) {
      this.note(line.line, "unparsable line", line.invalid, true);
      return;
    }
    const value = line.value;
    if (first && value.type === undefined && typeof value.id === "string") {
      this.meta(line.line, value);
      return;
    }
    if (value.record_type !== undefined) {
      this.skip("state");
      return;
    }
    const wrapped = isObject(value.payload) && typeof value.type === "string";
    if (!wrapped) {
      this.responseItem(line.line, value);
      return;
    }
    const payload = value.payload as Json;
    switch (value.type) {
      case "session_meta":
        this.meta(line.line, payload);
        return;
      case "response_item":
        this.responseItem(line.line, payload);
        return;
      case "compacted":
        this.compacted(line.line, payload);
        return;
      case "turn_context":
        if (typeof payload.model === "string") this.model = payload.model;
        this.skip("turn_context");
        return;
      case "event_msg":
        this.event(payload);
        return;
      default:
        this.note(line.line, String(value.type), JSON.stringify(value), true);
    }
  }

  constructor() {
    super("codex");
  }

  protected foundModel(): string | undefined {
    return this.model === "unknown" ? undefined : `openai/${this.model}`;
  }

  private meta(line: number, payload: Json): void {
    if (typeof payload.id === "string") this.sourceId ??= payload.id;
    if (typeof payload.cwd === "string") this.sourceCwd ??= payload.cwd;
    this.note(line, "session_meta", JSON.stringify(payload), false);
  }

  private event(payload: Json): void {
    this.skip(`event_msg ${String(payload.type)}`);
    if (payload.type !== "token_count" || !isObject(payload.info) || this.lastAnswer === undefined) return;
    const last = payload.info.last_token_usage;
    if (!isObject(last) || this.lastAnswer.usage !== undefined) return;
    const usage = toUsage({
      input: last.input_tokens,
      cacheRead: last.cached_input_tokens,
      output: last.output_tokens,
      reasoning: last.reasoning_output_tokens,
      inputIncludesCache: true,
    });
    if (usage !== undefined) this.lastAnswer.usage = usage;
  }

  private compacted(line: number, payload: Json): void {
    // Newer rollouts may leave `message` empty and give the rebuilt history, whose last user
    // message is the summary Codex carried on.
    const rebuilt = Array.isArray(payload.replacement_history)
      ? payload.replacement_history.filter(isObject)
      : [];
    const carried = rebuilt.filter((item) => item.type === "message" && item.role === "user").at(-1);
    const carriedText = (Array.isArray(carried?.content) ? carried.content.filter(isObject) : [])
      .map((part) => asText(part.text ?? ""))
      .join("\n");
    const summary =
      typeof payload.message === "string" && payload.message !== "" ? payload.message : carriedText;
    this.items.push({ kind: "compaction", summary, trigger: "manual", line });
  }

  private responseItem(line: number, item: Json): void {
    switch (item.type) {
      case "message":
        this.message(line, item);
        return;
      case "reasoning": {
        const parts = [item.summary, item.content].flatMap((list) =>
          Array.isArray(list) ? list.filter(isObject) : [],
        );
        const text = parts.map((part) => asText(part.text ?? "")).join("\n\n");
        this.answer(line, text === "" ? [] : [{ type: "thinking", text }]);
        return;
      }
      case "function_call":
      case "custom_tool_call":
      case "local_shell_call": {
        const id = String(item.call_id ?? item.id ?? "");
        const name = String(item.name ?? (item.type === "local_shell_call" ? "local_shell" : "unknown"));
        this.toolNames.set(id, name);
        const input = item.type === "function_call" ? item.arguments : (item.input ?? item.action);
        this.answer(line, [{ type: "tool-call", id, name, arguments: asArguments(input) }]);
        return;
      }
      default:
        if (OUTPUTS.has(String(item.type))) {
          this.output(line, item);
          return;
        }
        this.note(
          line,
          `response_item ${String(item.type)}`,
          JSON.stringify(item),
          item.type !== "web_search_call",
        );
    }
  }

  private message(line: number, item: Json): void {
    const parts = Array.isArray(item.content) ? item.content.filter(isObject) : [];
    if (item.role === "assistant") {
      const text = parts.map((part) => asText(part.text ?? part.refusal ?? "")).join("");
      this.answer(line, text === "" ? [] : [{ type: "text", text }]);
      return;
    }
    if (item.role !== "user") {
      this.note(line, `${String(item.role)} message`, JSON.stringify(item), false);
      return;
    }
    const content = parts.map(contentPart);
    this.items.push({ kind: "message", line, message: { role: "user", content } });
  }

  private answer(line: number, content: AssistantMessage["content"]): void {
    if (content.length === 0) return;
    const message: AssistantMessage = {
      role: "assistant",
      content,
      provider: "openai",
      api: "openai-responses",
      model: this.model,
      stopReason: content.some((block) => block.type === "tool-call") ? "tool-use" : "stop",
    };
    this.lastAnswer = message;
    this.items.push({ kind: "message", line, message });
  }

  private output(line: number, item: Json): void {
    const id = String(item.call_id ?? "");
    const output = item.output;
    const body = isObject(output) ? (output.content ?? output.output ?? output) : output;
    const content = Array.isArray(body)
      ? body.filter(isObject).map(contentPart)
      : [{ type: "text" as const, text: asText(body) }];
    const result: ToolResultBlock = {
      type: "tool-result",
      toolCallId: id,
      toolName: this.toolNames.get(id) ?? "unknown",
      content,
      isError: isObject(output) && output.success === false,
    };
    this.items.push({ kind: "message", line, message: { role: "tool", content: [result] } });
  }
}

/** A content part of a Codex message or output: text as text, an image as its placeholder. */
function contentPart(part: Json): TextBlock {
  if (typeof part.text === "string") return { type: "text", text: part.text };
  if (part.type === "input_image") {
    const url = typeof part.image_url === "string" ? part.image_url : "";
    const match = /^data:([^;,]+);base64,(.*)$/s.exec(url);
    return match === null ? imagePlaceholder("image") : imagePlaceholder(match[1] ?? "image", match[2]);
  }
  return blockPlaceholder(`${String(part.type)} part`);
}
