import { estimateTokens } from "../../src/compaction/index.js";
import type { RecordedRequest } from "../../src/simulator/fake-provider-types.js";
import type { AdapterFamily } from "./adapter-families.js";

/**
 * A fake server that counts differently from panto (issues 22 and 33): a multiple of panto's own
 * estimate of the parts it counts, with or without the system prompt and the tool definitions.
 */
export interface ServerCount {
  multiple: number;
  countTools: boolean;
  countSystem: boolean;
}

/** A request's parts in one wire format: system prompt, tool definitions and the conversation. */
export function partsOf(family: AdapterFamily, body: Record<string, unknown>) {
  switch (family.name) {
    case "anthropic":
      return { system: body.system, tools: body.tools, messages: body.messages as unknown[] };
    case "openai-chat": {
      const all = body.messages as Array<{ role: string }>;
      const isSystem = (message: { role: string }) =>
        message.role === "system" || message.role === "developer";
      return { system: all.filter(isSystem), tools: body.tools, messages: all.filter((m) => !isSystem(m)) };
    }
    case "openai-responses":
      return { system: body.instructions, tools: body.tools, messages: body.input as unknown[] };
    case "google-gemini":
      return { system: body.systemInstruction, tools: body.tools, messages: body.contents as unknown[] };
  }
}

const estimate = (value: unknown): number =>
  value === undefined ? 0 : estimateTokens(JSON.stringify(value));

/** The server's count of a request's parts, and of the request. */
export function countParts(family: AdapterFamily, count: ServerCount, request: RecordedRequest) {
  const parts = partsOf(family, request.body as Record<string, unknown>);
  const overhead =
    (count.countSystem ? estimate(parts.system) : 0) + (count.countTools ? estimate(parts.tools) : 0);
  const scale = (tokens: number) => Math.ceil(tokens * count.multiple);
  return {
    total: scale(overhead + estimate(parts.messages)),
    overhead: scale(overhead),
    lastMessage: scale(estimate(parts.messages.slice(-1))),
  };
}
