import type {
  CacheControlEphemeral,
  MessageCreateParamsStreaming,
  TextBlockParam,
  Tool,
} from "@anthropic-ai/sdk/resources/messages";
import type { ModelRequest, ToolDefinition } from "../../core/index.js";
import type { RenderTarget } from "../shared/index.js";
import { defaultMaxTokens } from "./default-max-tokens.js";
import { EPHEMERAL, renderAnthropicConversation } from "./render-anthropic-messages.js";

/**
 * Builds the streaming Messages request. Cache breakpoints (at most four, the API's limit): the
 * last tool, the system prompt, the compaction block and the latest turn, so the stable prefix
 * (tools, system, summary) is paid for once per cache lifetime. Nothing volatile precedes them.
 * Once clearing has settled the prompt, its settled points take breakpoints too (one-hour ones on
 * Anthropic's API, see `EPHEMERAL_HOUR`; two at most), the breakpoint before them lives as long
 * (the API wants longer lifetimes first), and to keep four only the latest of the last tool, the
 * system prompt and the compaction block keeps one: each prefix holds the ones before it, which
 * change only with it. A one-off request (`ModelRequest.oneOff`, a compaction's summary) has none.
 */
export function renderAnthropicRequest(
  request: ModelRequest,
  target: RenderTarget,
): MessageCreateParamsStreaming {
  const rendered = renderCached(request, target);
  return request.oneOff === true ? withoutBreakpoints(rendered) : rendered;
}

function renderCached(request: ModelRequest, target: RenderTarget): MessageCreateParamsStreaming {
  const { messages, settled } = renderAnthropicConversation(request.context, { provider: target.provider });
  const marker = settled ?? EPHEMERAL;
  const settling = settled !== undefined;
  const markSystem = request.systemPrompt !== "" && !(settling && request.context.compaction !== undefined);
  const system: TextBlockParam[] =
    request.systemPrompt === ""
      ? []
      : [{ type: "text", text: request.systemPrompt, ...(markSystem ? { cache_control: marker } : {}) }];
  const markTools = !settling || (request.systemPrompt === "" && request.context.compaction === undefined);
  return {
    model: request.model,
    max_tokens: request.maxOutputTokens ?? defaultMaxTokens(request.model),
    ...(system.length === 0 ? {} : { system }),
    ...(request.tools.length === 0
      ? {}
      : { tools: renderAnthropicTools(request.tools, markTools ? marker : undefined) }),
    messages,
    stream: true,
  };
}

/**
 * A one-off request (a compaction's summary) without its cache breakpoints: written to the cache it
 * would be billed at 1.25x input and never read again; without them it is plain input at 1x.
 */
function withoutBreakpoints(params: MessageCreateParamsStreaming): MessageCreateParamsStreaming {
  // Every block here was made by this render (none is shared), so they are unmarked in place.
  const blocks: object[] = [
    ...(Array.isArray(params.system) ? params.system : []),
    ...(params.tools ?? []),
    ...params.messages.flatMap((message) => (typeof message.content === "string" ? [] : message.content)),
  ];
  for (const block of blocks) if ("cache_control" in block) delete block.cache_control;
  return params;
}

function renderAnthropicTools(tools: ToolDefinition[], marker: CacheControlEphemeral | undefined): Tool[] {
  return tools.map((tool, index) => ({
    name: tool.name,
    description: tool.description,
    input_schema: { type: "object", ...tool.parameters },
    ...(index === tools.length - 1 && marker !== undefined ? { cache_control: marker } : {}),
  }));
}
