import type {
  AssistantMessage,
  ModelClient,
  ModelRequest,
  StreamOptions,
  ToolCallBlock,
} from "../../src/core/index.js";
import { PantoError } from "../../src/core/index.js";

export type ScriptStep =
  | { reply: string; calls?: ToolCallBlock[] }
  | { fail: PantoError }
  | ((
      request: Omit<ModelRequest, "model">,
    ) => { reply: string; calls?: ToolCallBlock[] } | { fail: PantoError });

export interface ScriptedCall {
  modelId: string;
  request: Omit<ModelRequest, "model">;
}

/** A model-client factory whose every client answers from one shared script, recording each request. */
export function scriptedClients(steps: ScriptStep[]): {
  createClient: (modelId: string) => ModelClient;
  calls: ScriptedCall[];
  created: string[];
} {
  const calls: ScriptedCall[] = [];
  const created: string[] = [];
  const createClient = (modelId: string): ModelClient => {
    created.push(modelId);
    const [provider = "", model = ""] = modelId.split("/");
    return {
      id: modelId,
      provider,
      model,
      async stream(request, options: StreamOptions = {}): Promise<AssistantMessage> {
        calls.push({ modelId, request: structuredClone(request) });
        const step = steps.shift();
        if (step === undefined) throw new Error(`script exhausted at call ${calls.length} (${modelId})`);
        const outcome = typeof step === "function" ? step(request) : step;
        if ("fail" in outcome) throw outcome.fail;
        options.onEvent?.({ type: "text-delta", text: outcome.reply });
        const calls_ = outcome.calls ?? [];
        return {
          role: "assistant",
          content: [{ type: "text", text: outcome.reply }, ...calls_],
          provider,
          api: "openai-chat",
          model,
          stopReason: calls_.length > 0 ? "tool-use" : "stop",
        };
      },
    };
  };
  return { createClient, calls, created };
}

export function overflow(): PantoError {
  return new PantoError("context_overflow", "prompt is too long: 2000 tokens > 1000 maximum", {
    status: 400,
  });
}
