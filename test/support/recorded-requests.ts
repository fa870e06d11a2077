import { estimateRequestTokens, type RecordedRequest } from "../../src/simulator/fake-provider-types.js";

/** A request a fake server received, as the JSON text it was sent as. */
export const bodyText = (request: RecordedRequest): string => JSON.stringify(request.body);

/** Whether the request asks for a summary (its prompt holds the transcript envelope). */
export const isSummaryRequest = (request: RecordedRequest): boolean =>
  bodyText(request).includes("<transcript>");

/** The fake's own count of a request, the number its context window is checked against. */
export const fakeCount = (request: RecordedRequest): number => estimateRequestTokens(bodyText(request));
