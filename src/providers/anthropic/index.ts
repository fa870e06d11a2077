export { createAnthropicClient } from "./create-anthropic-client.js";
export { renderAnthropicMessages } from "./render-anthropic-messages.js";
export { renderAnthropicRequest } from "./render-anthropic-request.js";
