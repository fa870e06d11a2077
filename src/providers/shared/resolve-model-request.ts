import type { ModelRequest } from "../../core/index.js";
import { optional } from "../../core/index.js";
import type { AdapterOptions } from "../adapter-options.js";

/**
 * The request as every adapter renders it: the client's model, and the one output limit that
 * applies. Max-output-token precedence is settled here and nowhere else: the request's own limit
 * (a compaction call sets one), else the configured `maxOutputTokens`, else none, which leaves the
 * wire's own default (Anthropic's required `max_tokens` is filled in by its renderer).
 */
export function resolveModelRequest(
  request: Omit<ModelRequest, "model">,
  options: AdapterOptions,
): ModelRequest {
  return {
    ...request,
    model: options.model,
    ...optional("maxOutputTokens", request.maxOutputTokens ?? options.maxOutputTokens),
  };
}
