import { APIConnectionError, APIError, APIUserAbortError } from "@anthropic-ai/sdk";
import type { StainlessErrors } from "../shared/index.js";

/** The Anthropic SDK's error classes. Its parsed `error` field is the whole body the API sent. */
export const ANTHROPIC_ERRORS: StainlessErrors = {
  APIError,
  APIConnectionError,
  APIUserAbortError,
  bodyOf: (parsed) => parsed,
};
