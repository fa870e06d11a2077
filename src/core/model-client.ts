import type { ToolCallBlock } from "./content.js";
import type { EffectiveContext } from "./context.js";
import type { AssistantMessage } from "./messages.js";

/** A tool as offered to the model. `parameters` is a JSON Schema object. */
export interface ToolDefinition {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export interface ModelRequest {
  /** Model name without the provider prefix, e.g. "claude-sonnet-4-5". */
  model: string;
  systemPrompt: string;
  context: EffectiveContext;
  tools: ToolDefinition[];
  maxOutputTokens?: number;
  /**
   * No later request repeats this prompt (a compaction's summary request): a provider whose cache
   * charges for writes (Anthropic, 1.25x input) is sent no cache breakpoints, so the prompt is billed
   * as plain input (1x) instead of a cache write that nothing would read.
   */
  oneOff?: boolean;
}

/** Streaming events, named noun-action. */
export type StreamEvent =
  | { type: "text-delta"; text: string }
  | { type: "thinking-delta"; text: string }
  | { type: "tool-call-start"; id: string; name: string }
  | { type: "tool-call-end"; call: ToolCallBlock }
  | { type: "retry-wait"; attempt: number; delayMs: number; reason: string };

export interface StreamOptions {
  signal?: AbortSignal;
  onEvent?: (event: StreamEvent) => void;
}

/**
 * One configured model behind one wire protocol. `stream` resolves with the complete assistant
 * message, or rejects with a PantoError whose code says what went wrong (context_overflow,
 * rate_limit, ...). Transient failures are retried inside; overflows never are.
 */
export interface ModelClient {
  /** "provider/model" as the user wrote it. */
  readonly id: string;
  readonly provider: string;
  readonly model: string;
  stream(request: Omit<ModelRequest, "model">, options?: StreamOptions): Promise<AssistantMessage>;
  /**
   * The context window in tokens as the server itself reports it (llama.cpp, Ollama, LM Studio,
   * OpenRouter...), asked once on first call; undefined when it does not say. Never rejects.
   */
  contextWindow?(): Promise<number | undefined>;
  /**
   * True when the server runs on this machine or a private network (llama.cpp, Ollama, LM Studio,
   * vLLM at home): the kind of server that may cut an over-long prompt silently instead of
   * rejecting it, and whose reported context size is cheap to ask. Absent for hosted providers.
   */
  readonly selfHosted?: boolean;
  /**
   * Whether the model takes images (known from its name and API, or config `models.<id>.images`).
   * False: a prompt with an image is refused before any request, and older images go as placeholders.
   * Absent: not known (a client made without createModelClient), taken as yes.
   */
  readonly acceptsImages?: boolean;
  /**
   * The model names (without the provider prefix) the provider's list endpoint reports, for
   * `/model`. Rejects with a classified PantoError; absent where the wire protocol has no list.
   */
  listModels?(options?: { signal?: AbortSignal }): Promise<string[]>;
}
