import { isPantoError, type ModelClient } from "../core/index.js";

/**
 * Wraps a Responses-API client for an endpoint that may not have /responses (an OpenAI-compatible
 * server at OPENAI_BASE_URL). The first time the endpoint answers 404 for the route itself, the
 * Chat Completions client takes over for that request and every later one, and the user is told once.
 */
export function withChatFallback(
  primary: ModelClient,
  createFallback: () => ModelClient,
  onWarning?: (message: string) => void,
): ModelClient {
  let fallback: ModelClient | undefined;
  const switchToChat = (): ModelClient => {
    if (fallback === undefined) {
      fallback = createFallback();
      onWarning?.(
        `${primary.provider}: the endpoint has no /responses route; using the Chat Completions API for ${primary.id}`,
      );
    }
    return fallback;
  };
  return {
    id: primary.id,
    provider: primary.provider,
    model: primary.model,
    // /models is the same route for both APIs.
    ...(primary.listModels === undefined ? {} : { listModels: primary.listModels.bind(primary) }),
    async stream(request, options) {
      if (fallback !== undefined) return fallback.stream(request, options);
      try {
        return await primary.stream(request, options);
      } catch (error) {
        if (!isMissingRoute(error)) throw error;
        return switchToChat().stream(request, options);
      }
    },
  };
}

/**
 * A 404 for the route, not for the model: servers without /responses answer "404 page not found",
 * {"detail":"Not Found"}, "Unknown request URL" and the like, while a wrong model name is a 404
 * whose body talks about the model ("The model `x` does not exist", code model_not_found).
 */
export function isMissingRoute(error: unknown): boolean {
  if (!isPantoError(error) || error.status !== 404) return false;
  const prefix = `${error.provider ?? ""}: `;
  const body = error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
  return !/\bmodels?\b|model_not_found|deployment/i.test(body);
}
