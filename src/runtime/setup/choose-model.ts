import type { ModelClient } from "../../core/index.js";
import { optional } from "../../core/index.js";

/**
 * The model used when none is configured, by the provider key found in the environment (first
 * match wins, in this order). Documented in the README and `panto --help`.
 */
export const DEFAULT_MODELS: ReadonlyArray<{ keys: readonly string[]; model: string }> = [
  { keys: ["ANTHROPIC_API_KEY"], model: "anthropic/claude-sonnet-4-5" },
  { keys: ["OPENAI_API_KEY"], model: "openai/gpt-5" },
  { keys: ["GEMINI_API_KEY", "GOOGLE_API_KEY"], model: "google/gemini-2.5-pro" },
];

export interface ModelChoice {
  model: string;
  /** Said once at startup: where the model came from, when that is not plain configuration. */
  notice?: string;
  /** A recorded model that cannot be used now (its key is missing, say), and why. */
  warning?: string;
}

/**
 * Which model a run uses: `-m` first (saying so when it replaces the one a resumed session was
 * using), then the resumed session's own model, then config "model", then the default model for a
 * provider key in the environment. Undefined when there is none of these.
 */
export function chooseModel(input: {
  flag: string | undefined;
  recorded: string | undefined;
  configured: string | undefined;
  env: NodeJS.ProcessEnv;
  createClient: (modelId: string) => ModelClient;
}): ModelChoice | undefined {
  const { flag, recorded } = input;
  if (flag !== undefined) {
    return recorded === undefined || recorded === flag
      ? { model: flag }
      : { model: flag, notice: `-m ${flag} replaces ${recorded}, the model this session was using` };
  }
  let warning: string | undefined;
  if (recorded !== undefined) {
    try {
      input.createClient(recorded);
      // Only worth saying when it is not the model the configuration would have given anyway.
      return recorded === input.configured
        ? { model: recorded }
        : { model: recorded, notice: `model ${recorded} restored from the session` };
    } catch (error) {
      warning = `this session was using ${recorded}, which cannot be used now: ${error instanceof Error ? error.message : String(error)}`;
    }
  }
  const fallback = fallbackModel(input.configured, input.env);
  if (fallback === undefined) return undefined;
  return { ...fallback, ...optional("warning", warning) };
}

function fallbackModel(configured: string | undefined, env: NodeJS.ProcessEnv): ModelChoice | undefined {
  if (configured !== undefined) return { model: configured };
  for (const { keys, model } of DEFAULT_MODELS) {
    const key = keys.find((name) => (env[name] ?? "") !== "");
    if (key !== undefined)
      return {
        model,
        notice: `no model configured: using ${model} because ${key} is set (-m or "model" in config.json chooses another)`,
      };
  }
  return undefined;
}
