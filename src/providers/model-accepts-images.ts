import type { ApiKind } from "../core/index.js";
import { BUILT_IN_PROVIDERS } from "./model-catalog.js";

/** Models known to take text only, though their family or API would suggest images. */
const TEXT_ONLY = [
  /^claude-(?:instant|[12])\b/,
  /claude-3[-.]5-haiku/,
  /^gpt-3\.5/,
  /^gpt-4(?:-\d{4})?(?:-preview)?$/,
  /^gpt-4-32k/,
  /^o1-(?:mini|preview)/,
  /^o3-mini/,
  /^gpt-oss/,
  /^text-/,
];

/** Families that take images, wherever they are served (an OpenAI-compatible gateway included). */
const VISION = [
  /claude/,
  /gpt-4o/,
  /gpt-4\.1/,
  /gpt-4-turbo/,
  /gpt-4-vision/,
  /gpt-5/,
  /^o[134]\b/,
  /gemini/,
  /gemma-?3/,
  /llava/,
  /bakllava/,
  /vision/,
  /(?:^|[-_.:])vl(?:$|[-_.:])/,
  /qwen[\d.]*-?vl/,
  /pixtral/,
  /llama-?4/,
  /grok-(?:4|2-vision)/,
  /mistral-(?:small|medium)-(?:3|latest)/,
  /minicpm-v/,
  /moondream/,
];

/**
 * Whether a model accepts images, from what its name and API tell: a known text-only model does
 * not; a known vision family does; any other model on Anthropic's, OpenAI's Responses or Gemini's
 * API does (every current model there takes images); any other one behind the Chat Completions API
 * (a local or hosted open model) does not. Config `models.<id>.images` overrides this.
 */
export function modelAcceptsImages(api: ApiKind, model: string): boolean {
  // A gateway's id names the vendor first ("anthropic/claude-sonnet-4.5"): the model is the last part.
  const name = (model.split("/").at(-1) ?? model).toLowerCase();
  if (TEXT_ONLY.some((pattern) => pattern.test(name))) return false;
  if (VISION.some((pattern) => pattern.test(name))) return true;
  return api !== "openai-chat";
}

/**
 * {@link modelAcceptsImages} for a "provider/model" id, with the API a built-in provider uses; a
 * provider panto does not know (one named in config) is taken to accept images, as its requests will
 * tell. For what must be said before config is read (ACP's `initialize`).
 */
export function modelIdAcceptsImages(id: string): boolean {
  const slash = id.indexOf("/");
  if (slash <= 0) return true;
  const provider = BUILT_IN_PROVIDERS[id.slice(0, slash)];
  return provider === undefined || modelAcceptsImages(provider.api, id.slice(slash + 1));
}
