import type { FakeServerInfo, RecordedRequest } from "./fake-provider-types.js";

export type { FakeServerInfo } from "./fake-provider-types.js";

/** Paths every fake answers as server information, never from the reply queue. */
const INFO_PATHS = new Set([
  "GET /props",
  "GET /slots",
  "POST /api/show",
  "GET /api/v0/models",
  "GET /v1/models",
]);

/**
 * The answer to a server-information request, or undefined for a request that is not one. A path
 * of another server kind than `info` says (or any, when `info` is absent) gets a 404, as it would.
 */
export function answerServerInfo(
  info: FakeServerInfo | undefined,
  request: RecordedRequest,
): { status: number; body: unknown } | undefined {
  const route = `${request.method} ${request.path.split("?")[0]}`;
  if (!INFO_PATHS.has(route)) return undefined;
  const body = info === undefined ? undefined : infoBody(info, route);
  return body === undefined
    ? { status: 404, body: { error: `no route for ${route}` } }
    : { status: 200, body };
}

function infoBody(info: FakeServerInfo, route: string): unknown {
  const model = info.model ?? "fake-model";
  switch (`${info.kind} ${route}`) {
    case "llama.cpp GET /props":
      return {
        default_generation_settings: { n_ctx: info.contextWindow, params: { temperature: 0.8 } },
        total_slots: 1,
        model_path: `/models/${model}.gguf`,
      };
    case "llama.cpp GET /slots":
      return [{ id: 0, n_ctx: info.contextWindow, is_processing: false }];
    case "ollama POST /api/show":
      return {
        parameters:
          info.numCtx === undefined ? 'stop "<|im_end|>"' : `num_ctx ${info.numCtx}\nstop "<|im_end|>"`,
        details: { family: "qwen2", parameter_size: "7.6B" },
        model_info: { "general.architecture": "qwen2", "qwen2.context_length": info.contextWindow },
      };
    case "lmstudio GET /api/v0/models":
      return {
        object: "list",
        data: [
          { id: "text-embedding-nomic", object: "model", type: "embeddings", max_context_length: 2048 },
          {
            id: model,
            object: "model",
            type: "llm",
            state: "loaded",
            max_context_length: info.contextWindow * 4,
            loaded_context_length: info.contextWindow,
          },
        ],
      };
    case "openrouter GET /v1/models":
      return {
        data: [
          { id: "other/model", context_length: 1000 },
          {
            id: model,
            name: model,
            context_length: info.contextWindow,
            top_provider: { context_length: info.contextWindow },
          },
        ],
      };
    default:
      return undefined;
  }
}
