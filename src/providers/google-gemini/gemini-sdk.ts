import { GoogleGenAI } from "@google/genai";
import { optional } from "../../core/index.js";
import type { AdapterOptions } from "../adapter-options.js";
import { KEYLESS_PLACEHOLDER, splitApiVersion } from "../shared/index.js";
import { GEMINI_BASE_URL } from "./gemini-base-url.js";

/** The SDK client for one model listing, pointed at the configured endpoint; loaded only then. */
export function geminiSdk(options: AdapterOptions, fetch: typeof globalThis.fetch): GoogleGenAI {
  // The SDK appends the API version itself; a base URL that already ends in one keeps it as the version.
  const { base, version } = splitApiVersion(options.baseURL ?? GEMINI_BASE_URL, ["v1beta", "v1alpha", "v1"]);
  return new GoogleGenAI({
    // Explicit, so GOOGLE_GENAI_USE_VERTEXAI in the environment cannot redirect requests.
    vertexai: false,
    // Credentials and endpoints come from the options alone (the config layer reads the
    // environment; the SDK must not fall back to GEMINI_API_KEY or GOOGLE_GEMINI_BASE_URL);
    // undefined means a keyless proxy, and a missing real key fails the way the API says.
    apiKey: options.apiKey ?? KEYLESS_PLACEHOLDER,
    httpOptions: {
      baseUrl: base,
      ...optional("apiVersion", version),
      ...optional("headers", options.headers),
      fetch,
    },
  });
}
