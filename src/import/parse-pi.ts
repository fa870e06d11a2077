import type { ApiKind, AssistantMessage, Message, StopReason, TextBlock } from "../core/index.js";
import { activeBranch, type TreeLink } from "./active-branch.js";
import { isObject } from "./detect-format.js";
import type { ParsedSource, SourceLine } from "./import-types.js";
import { asArguments, asText, blockPlaceholder, imagePlaceholder, toUsage } from "./source-blocks.js";
import { SourceReader } from "./source-reader.js";

type Json = Record<string, unknown>;

const APIS: Readonly<Record<string, ApiKind>> = {
  "anthropic-messages": "anthropic-messages",
  "openai-completions": "openai-chat",
  "openai-responses": "openai-responses",
  "google-generative-ai": "google-gemini",
};

const STOP_REASONS: Readonly<Record<string, StopReason>> = {
  stop: "stop",
  length: "length",
  toolUse: "tool-use",
  error: "error",
  aborted: "aborted",
};

/** Entry types pi writes that are no part of the model's context: kept as notes, not counted unknown. */
const PI_SETTINGS = new Set(["model_change", "thinking_level_change", "label", "session_info", "custom"]);

/**
 * Reads a pi session (`~/.pi/agent/sessions/--<cwd>--/<time>_<uuid>.jsonl`): line 1 the session
 * header, then entries linked into a tree by `id`/`parentId` (version 1 files are a plain list);
 * the conversation is the path to the latest entry. `message` entries hold pi's messages,
 * `compaction` entries its compactions (a summary and the first entry kept after it).
 */
export function parsePi(lines: readonly SourceLine[]): ParsedSource {
  const found: TreeLink[] = [];
  for (const line of lines.slice(1))
    if ("value" in line && typeof line.value.id === "string")
      found.push({
        id: line.value.id,
        ...(typeof line.value.parentId === "string" ? { parent: line.value.parentId } : {}),
      });
  const onBranch = found.length === 0 ? undefined : activeBranch(found, found.at(-1)?.id);
  const reader = new PiReader();
  lines.forEach((line, index) => {
    reader.read(line, index === 0, onBranch);
  });
  return reader.result();
}

class PiReader extends SourceReader {
  model: string | undefined;

  read(line: SourceLine, first: boolean, onBranch: ReadonlySet<string> | undefined): void {
    if (!("value" in line)) {
      this.note(line.line, "unparsable line", line.invalid, true);
      return;
    }
    const value = line.value;
    if (first) {
      if (typeof value.id === "string") this.sourceId = value.id;
      if (typeof value.cwd === "string") this.sourceCwd = value.cwd;
      return;
    }
    if (onBranch !== undefined && typeof value.id === "string" && !onBranch.has(value.id)) {
      this.note(line.line, `${String(value.type)} entry off the active branch`, JSON.stringify(value), false);
      return;
    }
    const id = typeof value.id === "string" ? value.id : undefined;
    if (value.type === "message" && isObject(value.message)) this.message(line.line, value.message, id);
    else if (value.type === "compaction")
      this.items.push({
        kind: "compaction",
        summary: asText(value.summary ?? ""),
        trigger: "manual",
        line: line.line,
        ...(typeof value.firstKeptEntryId === "string" ? { keepFrom: value.firstKeptEntryId } : {}),
      });
    else if (value.type === "branch_summary")
      this.user(line.line, id, [
        { type: "text", text: `[Summary of another branch of this session]\n${asText(value.summary)}` },
      ]);
    else if (value.type === "custom_message") this.user(line.line, id, userContent(value.content));
    else
      this.note(line.line, String(value.type), JSON.stringify(value), !PI_SETTINGS.has(String(value.type)));
  }

  constructor() {
    super("pi");
  }

  protected foundModel(): string | undefined {
    return this.model;
  }

  private push(line: number, id: string | undefined, message: Message): void {
    this.items.push({ kind: "message", line, message, ...(id === undefined ? {} : { sourceId: id }) });
  }

  private user(line: number, id: string | undefined, content: TextBlock[]): void {
    this.push(line, id, { role: "user", content });
  }

  private message(line: number, message: Json, id: string | undefined): void {
    switch (message.role) {
      case "user":
        this.user(line, id, userContent(message.content));
        return;
      case "assistant":
        this.push(line, id, this.assistant(message));
        return;
      case "toolResult": {
        const toolCallId = String(message.toolCallId ?? "");
        const content = userContent(message.content);
        const toolName = String(message.toolName ?? "unknown");
        const result = {
          type: "tool-result" as const,
          toolCallId,
          toolName,
          content,
          isError: message.isError === true,
        };
        this.push(line, id, { role: "tool", content: [result] });
        return;
      }
      case "bashExecution":
        if (message.excludeFromContext === true) break;
        this.user(line, id, [{ type: "text", text: bashText(message) }]);
        return;
      case "custom":
        this.user(line, id, userContent(message.content));
        return;
      case "branchSummary":
      case "compactionSummary":
        this.user(line, id, [{ type: "text", text: asText(message.summary) }]);
        return;
    }
    this.note(
      line,
      `${String(message.role)} message`,
      JSON.stringify(message),
      message.role !== "bashExecution",
    );
  }

  private assistant(message: Json): AssistantMessage {
    const api = APIS[String(message.api)] ?? "openai-chat";
    const provider = typeof message.provider === "string" ? message.provider : "pi";
    const model = typeof message.model === "string" ? message.model : "unknown";
    this.model = `${provider}/${model}`;
    const blocks = Array.isArray(message.content) ? message.content.filter(isObject) : [];
    const content = blocks.flatMap((block): AssistantMessage["content"] => {
      if (block.type === "text") return [{ type: "text", text: asText(block.text ?? "") }];
      if (block.type === "thinking") {
        // Only Anthropic's signature is a plain token panto can echo; other APIs' are pi's own encoding.
        const signature =
          api === "anthropic-messages" && typeof block.thinkingSignature === "string"
            ? block.thinkingSignature
            : undefined;
        return [
          {
            type: "thinking",
            text: asText(block.thinking ?? ""),
            ...(signature === undefined ? {} : { signature }),
          },
        ];
      }
      if (block.type === "toolCall")
        return [
          {
            type: "tool-call",
            id: String(block.id ?? ""),
            name: String(block.name ?? "unknown"),
            arguments: asArguments(block.arguments),
          },
        ];
      return [blockPlaceholder(`${String(block.type)} block`)];
    });
    const usage = isObject(message.usage)
      ? toUsage({
          input: message.usage.input,
          cacheRead: message.usage.cacheRead,
          cacheWrite: message.usage.cacheWrite,
          output: message.usage.output,
        })
      : undefined;
    return {
      role: "assistant",
      content,
      provider,
      api,
      model,
      stopReason: STOP_REASONS[String(message.stopReason)] ?? "stop",
      ...(usage === undefined ? {} : { usage }),
      ...(typeof message.errorMessage === "string" ? { errorMessage: message.errorMessage } : {}),
    };
  }
}

/** pi's user content (text or blocks): text kept, images as placeholders. */
function userContent(content: unknown): TextBlock[] {
  if (typeof content === "string") return [{ type: "text", text: content }];
  const blocks = Array.isArray(content) ? content.filter(isObject) : [];
  return blocks.map((block) => {
    if (block.type === "text") return { type: "text", text: asText(block.text ?? "") };
    if (block.type === "image")
      return imagePlaceholder(
        typeof block.mimeType === "string" ? block.mimeType : "image",
        typeof block.data === "string" ? block.data : undefined,
      );
    return blockPlaceholder(`${String(block.type)} block`);
  });
}

/** A shell command the user ran in pi (`!cmd`), as the text pi gives the model. */
function bashText(message: Json): string {
  const exit = typeof message.exitCode === "number" ? `\nexit code ${message.exitCode}` : "";
  return `Ran \`${asText(message.command)}\`\n\`\`\`\n${asText(message.output ?? "")}\n\`\`\`${exit}`;
}
