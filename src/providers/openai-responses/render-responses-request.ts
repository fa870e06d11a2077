import type { ResponseCreateParamsStreaming } from "openai/resources/responses/responses";
import type { ModelRequest } from "../../core/index.js";
import { optional } from "../../core/index.js";
import { renderResponsesInput } from "./render-responses-input.js";

/**
 * The streaming request body. Stateless (`store: false`), so reasoning models are asked for their
 * encrypted reasoning to echo back next time. Nothing volatile (timestamps, random ids) goes in,
 * so the provider's automatic prompt cache sees a stable prefix from one request to the next.
 */
export function renderResponsesRequest(request: ModelRequest): ResponseCreateParamsStreaming {
  const reasoning = isReasoningModel(request.model);
  return {
    model: request.model,
    ...(request.systemPrompt === "" ? {} : { instructions: request.systemPrompt }),
    input: renderResponsesInput(request.context),
    ...(request.tools.length === 0
      ? {}
      : {
          tools: request.tools.map((tool) => ({
            type: "function" as const,
            name: tool.name,
            description: tool.description,
            parameters: tool.parameters,
            strict: false,
          })),
        }),
    ...optional("max_output_tokens", request.maxOutputTokens),
    ...(reasoning ? { include: ["reasoning.encrypted_content"], reasoning: { summary: "auto" } } : {}),
    store: false,
    stream: true,
  };
}

/**
 * Whether the model reasons (o-series, gpt-5 family, codex). Only those accept the encrypted
 * reasoning include; other models reject it.
 */
export function isReasoningModel(model: string): boolean {
  const name = model.slice(model.lastIndexOf("/") + 1).toLowerCase();
  return /^(o\d|gpt-5)/.test(name) || name.includes("codex");
}
