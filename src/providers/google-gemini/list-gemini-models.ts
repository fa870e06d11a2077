import { optional } from "../../core/index.js";
import type { AdapterOptions } from "../adapter-options.js";
import type { GeminiFailureCapture, HttpFailure } from "./capture-gemini-failures.js";
import { geminiSdk } from "./gemini-sdk.js";
import { mapGeminiError } from "./map-gemini-error.js";

/** models.list through the SDK (GET {base}/v1beta/models), every page, names without "models/". */
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
    throw mapGeminiError(error, { provider, capture, streaming: false });
  }
  return names;
}

/**
 * Keeps the raw body of a failed response for the classifier; unlike the streaming capture, a
 * successful body (plain JSON here) is passed through untouched.
 */
function captureHttpFailure(baseFetch: typeof fetch): GeminiFailureCapture {
  let failure: HttpFailure | undefined;
  const capturing: typeof fetch = async (input, init) => {
    const response = await baseFetch(input, init);
    if (!response.ok)
      failure = { status: response.status, body: await response.clone().text(), headers: response.headers };
    return response;
  };
  return { fetch: capturing, httpFailure: () => failure, streamError: () => undefined };
}
