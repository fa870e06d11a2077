import { optional } from "../../core/index.js";
import type { AdapterOptions } from "../adapter-options.js";
import { geminiSdk } from "./gemini-sdk.js";
import { type HttpFailure, mapGeminiError } from "./map-gemini-error.js";

/**
 * models.list through the SDK (GET {base}/v1beta/models), every page, names without "models/". The
 * adapter loads this file, and with it the SDK, only when a model list is asked for.
 */
export async function listGeminiModels(
  options: AdapterOptions,
  signal: AbortSignal | undefined,
): Promise<string[]> {
  const { provider } = options;
  const capture = captureHttpFailure(options.fetch ?? globalThis.fetch);
  const names: string[] = [];
  try {
    const pager = await geminiSdk(options, capture.fetch).models.list({
      config: { pageSize: 1000, ...optional("abortSignal", signal) },
    });
    for await (const model of pager) {
      if (model.name !== undefined) names.push(model.name.replace(/^models\//, ""));
    }
  } catch (error) {
    throw mapGeminiError(error, { provider, httpFailure: capture.httpFailure() });
  }
  return names;
}

/**
 * Keeps the raw body of a failed response for the classifier: the SDK's ApiError keeps a
 * re-serialised body and no retry-after, and a JSON-typed body that is not JSON becomes a bare
 * SyntaxError. A successful body (plain JSON here) is passed through untouched.
 */
function captureHttpFailure(baseFetch: typeof fetch): {
  fetch: typeof fetch;
  httpFailure(): HttpFailure | undefined;
} {
  let failure: HttpFailure | undefined;
  const capturing: typeof fetch = async (input, init) => {
    const response = await baseFetch(input, init);
    if (!response.ok)
      failure = { status: response.status, body: await response.clone().text(), headers: response.headers };
    return response;
  };
  return { fetch: capturing, httpFailure: () => failure };
}
