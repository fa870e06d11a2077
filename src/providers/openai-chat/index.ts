export { createOpenAIChatClient } from "./create-openai-chat-client.js";
export { renderOpenAIChatMessages } from "./render-openai-chat-messages.js";
export { renderOpenAIChatRequest } from "./render-openai-chat-request.js";
