import type { PantoError } from "../../core/index.js";
import type { AdapterOptions } from "../adapter-options.js";
import { networkError } from "../provider-error.js";
import { captureErrorBodies, type ErrorBodyCapture } from "./capture-error-bodies.js";
import type { RequestWatchdog } from "./request-watchdog.js";
import { type SdkClientOptions, sdkClientOptions } from "./sdk-client-options.js";
import { type SniffedBody, sniffResponseBody } from "./sniff-response-body.js";
import { type StainlessErrors, stainlessErrorToPanto } from "./stainless-error-to-panto.js";

/** One adapter's Stainless SDK client (Anthropic's or OpenAI's) and what goes with it. */
export interface StainlessSdk<Sdk> {
  /**
   * Sends one request (`create` makes it with the SDK client, built on first use so that an SDK
   * complaint rejects a stream rather than the factory) and hands back its 200 body, sniffed: an
   * event stream, or one JSON document from a server that ignored `stream: true` (or a gateway's
   * error in a 200).
   */
  send(
    create: (sdk: Sdk) => { asResponse(): Promise<Response> },
    watchdog: RequestWatchdog,
  ): Promise<SniffedBody>;
  /** The raw bodies of failed responses, which the SDK parses and partly drops. */
  capture: ErrorBodyCapture;
  /** Classifies whatever a request through this SDK threw. */
  toPantoError(error: unknown): PantoError;
  /** Every page of the SDK's model list (`list` picks the endpoint): the model ids it offers. */
  listModelIds(list: (sdk: Sdk) => AsyncIterable<{ id: string }>): Promise<string[]>;
}

/**
 * The SDK client the Anthropic and OpenAI adapters set up the same way: our options only (no
 * environment fallback, no SDK retries), failed bodies captured, errors through the one mapper.
 */
export function stainlessSdk<Sdk>(
  options: AdapterOptions,
  config: {
    create: (clientOptions: SdkClientOptions) => Sdk;
    defaultBaseURL: string;
    errors: StainlessErrors;
  },
): StainlessSdk<Sdk> {
  const capture = captureErrorBodies(options.fetch);
  let sdk: Sdk | undefined;
  const context = { provider: options.provider, capture, errors: config.errors };
  const client = (): Sdk =>
    (sdk ??= config.create(sdkClientOptions(options, config.defaultBaseURL, capture.fetch)));
  const toPantoError = (error: unknown): PantoError => stainlessErrorToPanto(error, context);
  return {
    send: async (create, watchdog) => {
      const response = await create(client()).asResponse();
      watchdog.responded();
      if (response.body === null)
        throw networkError(options.provider, new Error("no response body"), "empty response");
      return sniffResponseBody(response.body);
    },
    capture,
    toPantoError,
    listModelIds: async (list) => {
      const ids: string[] = [];
      try {
        for await (const model of list(client())) ids.push(model.id);
      } catch (error) {
        throw toPantoError(error);
      }
      return ids;
    },
  };
}
