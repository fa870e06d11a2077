import { otherError } from "../provider-error.js";
import { splitApiVersion } from "../shared/index.js";
import { GEMINI_BASE_URL } from "./gemini-base-url.js";

/** The API version requests go to when the base URL names none: the one the SDK defaulted to. */
const DEFAULT_API_VERSION = "v1beta";

/**
 * The model's resource name: `models/{model}`, or the name as it is when already written as
 * `models/...` or `tunedModels/...`. A name that could step out of the models path or into the query
 * is refused before anything is sent, in the words the SDK used, and not retried: the same name
 * fails the same way.
 */
export function geminiModelPath(model: string, provider: string): string {
  if (model === "") throw otherError(provider, new Error("model is required and must be a string"));
  if (model.includes("..") || model.includes("?") || model.includes("&"))
    throw otherError(provider, new Error("invalid model parameter"));
  return model.startsWith("models/") || model.startsWith("tunedModels/") ? model : `models/${model}`;
}

/**
 * Where one streamed request goes: `{base}/{version}/{modelPath}:streamGenerateContent?alt=sse`, as
 * the SDK built it. A base URL that already ends in an API version keeps it as the version. The URL
 * is parsed, so a model name with spaces or other such characters is percent-encoded as before.
 */
export function geminiStreamURL(baseURL: string | undefined, modelPath: string): string {
  const { base, version } = splitApiVersion(baseURL ?? GEMINI_BASE_URL, ["v1beta", "v1alpha", "v1"]);
  const url = new URL(`${base}/${version ?? DEFAULT_API_VERSION}/${modelPath}:streamGenerateContent?alt=sse`);
  // A base URL carrying a query of its own could leave `alt` other than sse; the stream needs it.
  if (url.searchParams.get("alt") !== "sse") url.searchParams.set("alt", "sse");
  return url.toString();
}
