import { type ModelClient, PantoError } from "../core/index.js";

/**
 * A ModelClient whose adapter (and vendor SDK) is imported on the first request, so a run that talks
 * to one provider never loads the others' SDKs and `panto` starts quickly.
 */
export function lazyModelClient(
  identity: { provider: string; model: string },
  load: () => Promise<ModelClient>,
): ModelClient {
  let loaded: Promise<ModelClient> | undefined;
  return {
    id: `${identity.provider}/${identity.model}`,
    provider: identity.provider,
    model: identity.model,
    async stream(request, options) {
      loaded ??= load();
      return (await loaded).stream(request, options);
    },
    async listModels(options) {
      loaded ??= load();
      const client = await loaded;
      if (client.listModels === undefined)
        throw new PantoError("other", `${client.id}: the provider cannot list its models`);
      return client.listModels(options);
    },
  };
}
