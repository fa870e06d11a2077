export { createGeminiClient } from "./create-gemini-client.js";
export { FOREIGN_CALL_SIGNATURE, renderGeminiContents } from "./render-gemini-contents.js";
export { isThinkingModel, renderGeminiRequest } from "./render-gemini-request.js";
export { isSyntheticCallId, syntheticAnswerTag, syntheticCallId } from "./synthetic-call-id.js";
