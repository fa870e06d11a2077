import type {
  AssistantMessage,
  ModelClient,
  ModelRequest,
  PantoError,
  StreamOptions,
} from "../../core/index.js";
import type { AdapterOptions } from "../adapter-options.js";
import { withDistinctCallIds } from "./distinct-call-ids.js";
import type { RequestWatchdog } from "./request-watchdog.js";
import { resolveModelRequest } from "./resolve-model-request.js";
import { runWithRetry } from "./run-with-retry.js";

/**
 * Who a request is for, as every adapter's renderer is given it. The one renderer signature is
 * `(request: ModelRequest, target: RenderTarget) => body`: the request with its model and output
 * limit already settled by `resolveModelRequest`, and the target, which an adapter whose wire needs
 * more (the abort signal, what it learned about the server) extends. A renderer that needs nothing
 * of the target takes the request alone.
 */
export interface RenderTarget {
  provider: string;
}

/** What one adapter supplies to the shell all four share: its wire, and only its wire. */
export interface AdapterWire {
  /** Where requests go when no base URL is configured; named in timeout and connection errors. */
  defaultBaseURL: string;
  /** One attempt: render the request for this wire, send it, read the answer. */
  attempt(
    request: ModelRequest,
    watchdog: RequestWatchdog,
    onEvent: StreamOptions["onEvent"],
  ): Promise<AssistantMessage>;
  /** Classifies whatever an attempt threw. */
  toPantoError(error: unknown): PantoError;
  listModels(signal: AbortSignal | undefined): Promise<string[]>;
}

/**
 * The ModelClient every adapter builds the same way: its identity, a `stream` that settles the
 * request once and runs the adapter's attempt under the shared deadlines, retries and redaction
 * (`runWithRetry`), its tool calls given distinct ids, and the adapter's model listing.
 */
export function createAdapterClient(options: AdapterOptions, wire: AdapterWire): ModelClient {
  return {
    id: `${options.provider}/${options.model}`,
    provider: options.provider,
    model: options.model,
    stream: (request, streamOptions) => {
      const resolved = resolveModelRequest(request, options);
      return runWithRetry(options, streamOptions, {
        attempt: async (watchdog) =>
          withDistinctCallIds(await wire.attempt(resolved, watchdog, streamOptions?.onEvent)),
        toPantoError: (error) => wire.toPantoError(error),
        endpoint: options.baseURL ?? wire.defaultBaseURL,
      });
    },
    listModels: (listOptions) => wire.listModels(listOptions?.signal),
  };
}
