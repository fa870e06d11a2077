import type { PantoError } from "../../core/index.js";
import type { AdapterOptions } from "../adapter-options.js";
import { providerErrorFromResponse } from "../provider-error.js";
import {
  jsonRequestHeaders,
  postJson,
  type RequestWatchdog,
  readBodyText,
  type SniffedBody,
  sniffResponseBody,
} from "../shared/index.js";
import { OPENAI_BASE_URL } from "./openai-base-url.js";

/** One POST's outcome: the 200 body, sniffed; or the failure, classified, with its status and raw text. */
export type OpenAIAnswer =
  | { ok: true; body: SniffedBody }
  | { ok: false; error: PantoError; status: number; text: string };

/**
 * POSTs one request to an OpenAI-style endpoint (`{baseURL}/{path}`, the base URL with its /v1)
 * through node:http (see postJson), as the OpenAI SDK sent it less its telemetry headers. The SDK's
 * client and the fetch it needs cost a short run about 40 ms more than the Anthropic adapter, which
 * has posted this way for a while; the SDK still lists models, loaded only then.
 */
export async function postOpenAI(
  options: AdapterOptions,
  path: "chat/completions" | "responses",
  params: unknown,
  watchdog: RequestWatchdog,
): Promise<OpenAIAnswer> {
  const { provider } = options;
  const base = options.baseURL ?? OPENAI_BASE_URL;
  const answer = await postJson(`${base}${base.endsWith("/") ? "" : "/"}${path}`, {
    provider,
    headers: openAIHeaders(options),
    body: JSON.stringify(params),
    signal: watchdog.signal,
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
  });
  watchdog.responded();
  if (answer.status >= 200 && answer.status <= 299)
    return { ok: true, body: await sniffResponseBody(answer.body) };
  const text = await readBodyText(answer.body);
  const error = providerErrorFromResponse({
    status: answer.status,
    body: text,
    provider,
    headers: answer.headers,
  });
  return { ok: false, error, status: answer.status, text };
}

/** What the OpenAI SDK added of its own: the organization and project it read from OPENAI_ORG_ID and OPENAI_PROJECT_ID. */
function openAIHeaders(options: AdapterOptions): Record<string, string> {
  const own: Record<string, string> = {};
  const organization = process.env.OPENAI_ORG_ID;
  const project = process.env.OPENAI_PROJECT_ID;
  if (organization !== undefined && organization !== "") own["openai-organization"] = organization;
  if (project !== undefined && project !== "") own["openai-project"] = project;
  return jsonRequestHeaders(options, own);
}
