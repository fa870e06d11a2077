import type { GenerateContentConfig, GenerateContentParameters } from "@google/genai";
import type { ModelRequest } from "../../core/index.js";
import { optional } from "../../core/index.js";
import type { RenderTarget } from "../shared/index.js";
import { renderGeminiContents } from "./render-gemini-contents.js";

/**
 * The request for `models.generateContentStream`. Tools go as JSON Schema declarations; thought
 * summaries are requested from models that think. The SDK's automatic function calling and
 * automatic continuation stay off: tools run in the agent loop and retries happen in ours.
 */
export function renderGeminiRequest(
  request: ModelRequest,
  target: RenderTarget & { abortSignal: AbortSignal },
): GenerateContentParameters {
  const { abortSignal } = target;
  const config: GenerateContentConfig = {
    ...(request.systemPrompt === "" ? {} : { systemInstruction: request.systemPrompt }),
    ...(request.tools.length === 0
      ? {}
      : {
          tools: [
            {
              functionDeclarations: request.tools.map((tool) => ({
                name: tool.name,
                description: tool.description,
                parametersJsonSchema: tool.parameters,
              })),
            },
          ],
        }),
    ...optional("maxOutputTokens", request.maxOutputTokens),
    ...(isThinkingModel(request.model) ? { thinkingConfig: { includeThoughts: true } } : {}),
    automaticFunctionCalling: { disable: true },
    automaticContinuation: false,
    abortSignal,
  };
  return { model: request.model, contents: renderGeminiContents(request.context), config };
}

/** Gemini 2.5 and later think (the "-latest" aliases point at them); older models reject a thinking config. */
export function isThinkingModel(model: string): boolean {
  const name = model.slice(model.lastIndexOf("/") + 1).toLowerCase();
  if (/^gemini-.*(thinking|-latest$)/.test(name)) return true;
  const version = /^gemini-(\d+(?:\.\d+)?)/.exec(name)?.[1];
  return version !== undefined && Number(version) >= 2.5;
}
