import { optional } from "../../core/index.js";
import type { AdapterOptions } from "../adapter-options.js";
import { stainlessSdk } from "../shared/index.js";
import { ANTHROPIC_ERRORS } from "./anthropic-errors.js";
import { AnthropicSdk } from "./anthropic-sdk.js";

/**
 * The model ids GET /v1/models offers, every page, through the SDK (its pagination and errors). The
 * adapter loads this file, and with it the SDK, only when a model list is asked for.
 */
export function listAnthropicModels(
  options: AdapterOptions,
  defaultBaseURL: string,
  signal: AbortSignal | undefined,
): Promise<string[]> {
  const { listModelIds } = stainlessSdk(options, {
    create: (clientOptions) => new AnthropicSdk(clientOptions),
    defaultBaseURL,
    errors: ANTHROPIC_ERRORS,
  });
  return listModelIds((client) => client.models.list({ limit: 1000 }, optional("signal", signal)));
}
