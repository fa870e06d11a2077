import { APIConnectionError, APIError, APIUserAbortError, OpenAI } from "openai";
import type { AdapterOptions } from "../adapter-options.js";
import { type StainlessErrors, type StainlessSdk, stainlessSdk } from "../shared/index.js";
import { OPENAI_BASE_URL } from "./openai-base-url.js";

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

/** The OpenAI SDK client both OpenAI adapters (Chat Completions and Responses) list models with. */
export function openAISdk(options: AdapterOptions): StainlessSdk<OpenAI> {
  return stainlessSdk(options, {
    create: (clientOptions) => new OpenAI(clientOptions),
    defaultBaseURL: OPENAI_BASE_URL,
    errors: OPENAI_ERRORS,
  });
}
