import { APIConnectionError, APIError, APIUserAbortError, OpenAI } from "openai";
import type { AdapterOptions } from "../adapter-options.js";
import { type StainlessErrors, type StainlessSdk, stainlessSdk } from "../shared/index.js";

export const OPENAI_BASE_URL = "https://api.openai.com/v1";

/**
 * The OpenAI SDK's error classes. Its parsed `error` field is only the inner `error` object of the
 * body (vLLM and Mistral-style bodies lose the rest, hence the captured raw body).
 */
const OPENAI_ERRORS: StainlessErrors = {
  APIError,
  APIConnectionError,
  APIUserAbortError,
  bodyOf: (parsed) => ({ error: parsed }),
};

/** The OpenAI SDK client both OpenAI adapters (Chat Completions and Responses) set up alike. */
export function openAISdk(options: AdapterOptions): StainlessSdk<OpenAI> {
  return stainlessSdk(options, {
    create: (clientOptions) => new OpenAI(clientOptions),
    defaultBaseURL: OPENAI_BASE_URL,
    errors: OPENAI_ERRORS,
  });
}
