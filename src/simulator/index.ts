/** Scriptable fake provider servers on 127.0.0.1, one per wire format, for tests and `panto demo`. */
export { contextEchoResponder } from "./context-echo-responder.js";
export { startFakeAnthropicServer } from "./fake-anthropic-server.js";
export { startFakeGeminiServer } from "./fake-gemini-server.js";
export { startFakeOpenAIChatServer } from "./fake-openai-chat-server.js";
export { startFakeOpenAIResponsesServer } from "./fake-openai-responses-server.js";
export * from "./fake-provider-types.js";
export type { FakeServerInfo } from "./fake-server-info.js";
export { RECALL_INVITATION, recallReaderResponder } from "./recall-reader-responder.js";
