import type {
  MessageCreateParamsStreaming,
  TextBlockParam,
  Tool,
} from "@anthropic-ai/sdk/resources/messages";
import type { ModelRequest, ToolDefinition } from "../../core/index.js";
import type { RenderTarget } from "../shared/index.js";
import { defaultMaxTokens } from "./default-max-tokens.js";
import { EPHEMERAL, renderAnthropicMessages } from "./render-anthropic-messages.js";

/**
 * Builds the streaming Messages request. Cache breakpoints (at most four, the API's limit): the
 * last tool, the system prompt, the compaction block and the latest turn, so the stable prefix
 * (tools, system, summary) is paid for once per cache lifetime. Nothing volatile precedes them.
 */
export function renderAnthropicRequest(
  request: ModelRequest,
  target: RenderTarget,
): MessageCreateParamsStreaming {
  const system: TextBlockParam[] =
    request.systemPrompt === ""
      ? []
      : [{ type: "text", text: request.systemPrompt, cache_control: EPHEMERAL }];
  return {
    model: request.model,
    max_tokens: request.maxOutputTokens ?? defaultMaxTokens(request.model),
    ...(system.length === 0 ? {} : { system }),
    ...(request.tools.length === 0 ? {} : { tools: renderAnthropicTools(request.tools) }),
    messages: renderAnthropicMessages(request.context, { provider: target.provider }),
    stream: true,
  };
}

function renderAnthropicTools(tools: ToolDefinition[]): Tool[] {
  return tools.map((tool, index) => ({
    name: tool.name,
    description: tool.description,
    input_schema: { type: "object", ...tool.parameters },
    ...(index === tools.length - 1 ? { cache_control: EPHEMERAL } : {}),
  }));
}
