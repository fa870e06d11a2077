import type { OpenAI } from "openai";
import type { PantoError } from "../../core/index.js";

/**
 * GET {base}/models through the SDK (OpenAI and every OpenAI-compatible server), every page: the
 * model ids the endpoint offers. Failures go through the adapter's own classifier.
 */
export async function listOpenAIModels(
  sdk: OpenAI,
  signal: AbortSignal | undefined,
  toPantoError: (error: unknown) => PantoError,
): Promise<string[]> {
  const names: string[] = [];
  try {
    for await (const model of sdk.models.list(signal === undefined ? {} : { signal })) names.push(model.id);
  } catch (error) {
    throw toPantoError(error);
  }
  return names;
}
