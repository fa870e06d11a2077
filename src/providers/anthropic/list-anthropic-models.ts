import type { Anthropic } from "@anthropic-ai/sdk";
import type { ErrorBodyCapture } from "../shared/index.js";
import { anthropicErrorToPanto } from "./anthropic-error-to-panto.js";

/** GET /v1/models through the SDK, every page: the model ids the endpoint offers. */
export async function listAnthropicModels(
  sdk: Anthropic,
  provider: string,
  capture: ErrorBodyCapture,
  signal: AbortSignal | undefined,
): Promise<string[]> {
  const names: string[] = [];
  try {
    for await (const model of sdk.models.list({ limit: 1000 }, signal === undefined ? {} : { signal }))
      names.push(model.id);
  } catch (error) {
    throw anthropicErrorToPanto(error, provider, capture);
  }
  return names;
}
