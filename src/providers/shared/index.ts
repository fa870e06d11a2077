export { type AdapterWire, createAdapterClient, type RenderTarget } from "./adapter-client.js";
export { attemptErrorToPanto } from "./attempt-error.js";
export {
  captureErrorBodies,
  type ErrorBodyCapture,
  sdkHttpErrorToPanto,
} from "./capture-error-bodies.js";
export { malformedAnswer, parseWireJson } from "./check-wire.js";
export { renderCompactionText } from "./compaction-text.js";
export { describeEndpoint } from "./describe-endpoint.js";
export { groupToolResults } from "./group-tool-results.js";
export { isNetworkFailure } from "./is-network-failure.js";
export { jsonRequestHeaders } from "./json-request-headers.js";
export { parseToolArguments } from "./parse-tool-arguments.js";
export { type HttpAnswer, type PostJsonOptions, postJson } from "./post-json.js";
export { readSseEvents, type SseEvent } from "./read-sse-events.js";
export {
  DEFAULT_FIRST_BYTE_TIMEOUT_MS,
  DEFAULT_IDLE_TIMEOUT_MS,
  DEFAULT_REQUEST_TIMEOUT_MS,
  type RequestTimeouts,
  type RequestWatchdog,
  resolveTimeouts,
  startRequestWatchdog,
  type TimeoutKind,
} from "./request-watchdog.js";
export {
  MAX_TIMEOUT_RETRIES,
  type RetryableRequest,
  runWithRetry,
  TIMEOUT_RETRY_WINDOW_MS,
} from "./run-with-retry.js";
export { KEYLESS_PLACEHOLDER, type SdkClientOptions, sdkClientOptions } from "./sdk-client-options.js";
export {
  type ByteBody,
  bytesOf,
  type PeekedBody,
  peekBody,
  readBodyText,
  type SniffedBody,
  sniffResponseBody,
} from "./sniff-response-body.js";
export { splitApiVersion } from "./split-api-version.js";
export type { StainlessErrors } from "./stainless-error-to-panto.js";
export { type StainlessSdk, stainlessSdk } from "./stainless-sdk.js";
