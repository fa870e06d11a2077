import type {
  ChatCompletionCreateParamsStreaming,
  ChatCompletionFunctionTool,
} from "openai/resources/chat/completions";
import type { ModelRequest, ToolDefinition } from "../../core/index.js";
import type { RenderTarget } from "../shared/index.js";
import { renderOpenAIChatMessages } from "./render-openai-chat-messages.js";

/** Who the request is for and what the client has learned about the server. */
export interface OpenAIChatTarget extends RenderTarget {
  /** Ask for the usage chunk (`stream_options.include_usage`); off for servers that reject it. */
  includeUsage: boolean;
}

/**
 * Builds the streaming Chat Completions request. OpenAI caches prompt prefixes automatically, so
 * the request starts with what never changes (system prompt, tools) and carries no ids or
 * timestamps. The output limit is sent only when configured: `max_completion_tokens` for OpenAI
 * itself (its reasoning models refuse `max_tokens`), `max_tokens` for compatible servers.
 */
export function renderOpenAIChatRequest(
  request: ModelRequest,
  target: OpenAIChatTarget,
): ChatCompletionCreateParamsStreaming {
  const maxTokens = request.maxOutputTokens;
  const maxTokensField = target.provider === "openai" ? "max_completion_tokens" : "max_tokens";
  return {
    model: request.model,
    messages: renderOpenAIChatMessages(request.systemPrompt, request.context),
    ...(request.tools.length === 0 ? {} : { tools: request.tools.map(renderTool) }),
    ...(maxTokens === undefined ? {} : { [maxTokensField]: maxTokens }),
    stream: true,
    ...(target.includeUsage ? { stream_options: { include_usage: true } } : {}),
  };
}

function renderTool(tool: ToolDefinition): ChatCompletionFunctionTool {
  return {
    type: "function",
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  };
}
