import type { Content, FunctionDeclaration } from "@google/genai";
import type { ModelRequest } from "../../core/index.js";
import { optional } from "../../core/index.js";
import { otherError } from "../provider-error.js";
import type { RenderTarget } from "../shared/index.js";
import { renderGeminiContents } from "./render-gemini-contents.js";

/**
 * The body of one `streamGenerateContent` request as the API reads it: the system instruction and
 * tools at the top level, the generation settings in `generationConfig` (always present, empty
 * when nothing is set), where the SDK used to move them from its `config`.
 */
export interface GeminiRequestBody {
  contents: Content[];
  systemInstruction?: Content;
  tools?: Array<{ functionDeclarations: FunctionDeclaration[] }>;
  generationConfig: { maxOutputTokens?: number; thinkingConfig?: { includeThoughts: boolean } };
}

/**
 * The request body, field for field what the SDK sent (and in its order, so the bytes match too).
 * Tools go as JSON Schema declarations; thought summaries are asked of models that think. The model
 * travels in the URL (see geminiStreamURL). A context that renders to no contents is refused before
 * anything is sent, in the SDK's words, and not retried: the API would refuse it as well.
 */
export function renderGeminiRequest(request: ModelRequest, target: RenderTarget): GeminiRequestBody {
  const contents = renderGeminiContents(request.context);
  if (contents.length === 0) throw otherError(target.provider, new Error("contents are required"));
  return {
    contents,
    ...(request.systemPrompt === ""
      ? {}
      : { systemInstruction: { parts: [{ text: request.systemPrompt }], role: "user" } }),
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
    generationConfig: {
      ...optional("maxOutputTokens", request.maxOutputTokens),
      ...(isThinkingModel(request.model) ? { thinkingConfig: { includeThoughts: true } } : {}),
    },
  };
}

/** Gemini 2.5 and later think (the "-latest" aliases point at them); older models reject a thinking config. */
export function isThinkingModel(model: string): boolean {
  const name = model.slice(model.lastIndexOf("/") + 1).toLowerCase();
  if (/^gemini-.*(thinking|-latest$)/.test(name)) return true;
  const version = /^gemini-(\d+(?:\.\d+)?)/.exec(name)?.[1];
  return version !== undefined && Number(version) >= 2.5;
}
