export { createOpenAIResponsesClient } from "./create-openai-responses-client.js";
export { renderResponsesInput } from "./render-responses-input.js";
export { renderResponsesRequest } from "./render-responses-request.js";
