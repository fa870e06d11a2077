import { nearestNames } from "../../core/did-you-mean.js";
import { isPantoError } from "../../core/index.js";
import { type ProviderModels, usageError } from "../command-outcome.js";
import type { CommandHandler, RunContext } from "../run-context.js";

/** How long `/model` waits for a provider's model list before going on without it. */
const LIST_TIMEOUT_MS = 10_000;
/** Nearest names offered when a model is refused. */
const NEAREST = 3;

/** Model lists fetched this run, per run and provider: asked once, reused by Tab completion. */
const cache = new WeakMap<RunContext, Map<string, Promise<ProviderModels>>>();

/** The models `modelId`'s provider lists (through its adapter's list endpoint), fetched once per run. */
export function providerModels(
  run: RunContext,
  modelId: string,
  signal?: AbortSignal,
): Promise<ProviderModels> {
  const provider = providerOf(modelId);
  let lists = cache.get(run);
  if (lists === undefined) {
    lists = new Map();
    cache.set(run, lists);
  }
  const known = lists.get(provider);
  if (known !== undefined) return known;
  const fetched = fetchModels(run, modelId, signal);
  lists.set(provider, fetched);
  // A failure (offline, cancelled) is not remembered: the next /model asks again.
  void fetched.then((result) => {
    if (result.type === "unlisted") lists.delete(provider);
  });
  return fetched;
}

async function fetchModels(run: RunContext, modelId: string, signal?: AbortSignal): Promise<ProviderModels> {
  const provider = providerOf(modelId);
  try {
    const client = run.createClient(modelId);
    if (client.listModels === undefined) return { type: "unlisted", reason: `${provider} has no model list` };
    const names = await client.listModels({ signal: withTimeout(signal, LIST_TIMEOUT_MS) });
    return { type: "listed", ids: names.map((name) => `${provider}/${name}`).sort() };
  } catch (error) {
    return { type: "unlisted", reason: describeFailure(error) };
  }
}

/** `/model [PROVIDER/MODEL]`: lists the models, or switches after checking the provider lists the new one. */
export const runModelCommand: CommandHandler = async (run, args, signal) => {
  if (args === "") {
    const model = run.agent.model;
    return {
      type: "models-listed",
      model,
      provider: providerOf(model),
      listed: await providerModels(run, model, signal),
      configured: run.configuredModels,
    };
  }
  // A bare name means the current provider's model of that name.
  const modelId = args.includes("/") ? args : `${providerOf(run.agent.model)}/${args}`;
  try {
    run.createClient(modelId);
  } catch (error) {
    if (!isPantoError(error)) throw error;
    return usageError(error.message, error.code);
  }
  const listed = await providerModels(run, modelId, signal);
  if (listed.type === "listed" && listed.ids.length > 0 && !listed.ids.includes(modelId))
    return usageError(unknownModelMessage(modelId, listed.ids));
  run.agent.setModel(modelId);
  await run.agent.recordModel();
  return listed.type === "unlisted"
    ? { type: "model-switched", model: modelId, unchecked: listed.reason }
    : { type: "model-switched", model: modelId };
};

function unknownModelMessage(modelId: string, ids: readonly string[]): string {
  const nearest = nearestNames(modelId, ids, { limit: NEAREST, maxDistance: Number.POSITIVE_INFINITY });
  return [
    `unknown model ${modelId}: ${providerOf(modelId)} does not list it; the model is unchanged.`,
    `Nearest: ${nearest.join(", ")}`,
    "/model with no argument lists them all (Tab completes).",
  ].join("\n");
}

/** Completion candidates for "/model <prefix>": the provider's listed models and the configured ones. */
export async function modelCompletions(run: RunContext, prefix: string): Promise<string[]> {
  const listed = await providerModels(run, run.agent.model);
  const ids = [...(listed.type === "listed" ? listed.ids : []), ...run.configuredModels];
  const bare = prefix.includes("/") ? undefined : providerOf(run.agent.model);
  return [...new Set(ids)].filter(
    (id) => id.startsWith(prefix) || (bare !== undefined && id.startsWith(`${bare}/${prefix}`)),
  );
}

/** `signal`, also aborted after `ms` (AbortSignal.any is newer than Node 20.0). */
function withTimeout(signal: AbortSignal | undefined, ms: number): AbortSignal {
  const controller = new AbortController();
  setTimeout(() => controller.abort(), ms).unref();
  if (signal?.aborted) controller.abort();
  else signal?.addEventListener("abort", () => controller.abort(), { once: true });
  return controller.signal;
}

function providerOf(modelId: string): string {
  return modelId.slice(0, Math.max(0, modelId.indexOf("/")));
}

function describeFailure(error: unknown): string {
  if (isPantoError(error)) return `${error.code}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}
