import type { RawOpenAIChatUsage } from "./normalize-openai-chat-usage.js";
import type { ChatContentPart } from "./split-chat-content.js";

/** One streamed chunk as OpenAI and the compatible servers send it (their extra fields included). */
export interface ChatChunk {
  choices?: Array<{
    delta?: ChatDelta | null;
    /** A whole message sent as the one chunk of a stream (a few servers and proxies). */
    message?: ChatDelta | null;
    finish_reason?: string | null;
  }> | null;
  usage?: RawOpenAIChatUsage | null;
}

/** What one chunk adds to the message. */
export interface ChatDelta {
  /** A string, or Mistral-style parts (text and thinking). */
  content?: string | ChatContentPart[] | null;
  /** DeepSeek, vLLM, llama.cpp and others stream reasoning here... */
  reasoning_content?: string | null;
  /** ...and OpenRouter, Ollama and newer vLLM here. */
  reasoning?: string | null;
  tool_calls?: ChatToolCallDelta[] | null;
}

/** One fragment of a streamed tool call; `index` says which parallel call it extends. */
export interface ChatToolCallDelta {
  index?: number;
  id?: string | null;
  /** `arguments` is JSON text; a few servers send the parsed object instead. */
  function?: { name?: string | null; arguments?: string | Record<string, unknown> | null } | null;
}
