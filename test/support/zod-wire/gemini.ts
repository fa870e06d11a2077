import type { GenerateContentResponse } from "@google/genai";
import { z } from "zod";
import { checkWire } from "./check-wire.js";

const count = z.number().nonnegative().optional();

const part = z.looseObject({
  text: z.string().optional(),
  thought: z.boolean().optional(),
  thoughtSignature: z.string().optional(),
  functionCall: z
    .looseObject({
      id: z.string().optional(),
      name: z.string().optional(),
      args: z.record(z.string(), z.unknown()).optional(),
    })
    .optional(),
});

const chunkSchema = z.looseObject({
  usageMetadata: z
    .looseObject({
      promptTokenCount: count,
      candidatesTokenCount: count,
      thoughtsTokenCount: count,
      cachedContentTokenCount: count,
      toolUsePromptTokenCount: count,
    })
    .optional(),
  promptFeedback: z.looseObject({ blockReason: z.string().optional() }).optional(),
  candidates: z
    .array(
      z.looseObject({
        content: z.looseObject({ parts: z.array(part).optional() }).optional(),
        finishReason: z.string().optional(),
      }),
    )
    .optional(),
});

/**
 * Checks one chunk as the SDK handed it over (absent fields are undefined there, never null)
 * before the reader trusts its fields.
 */
export function checkGeminiChunk(chunk: GenerateContentResponse, provider: string): GenerateContentResponse {
  return checkWire<GenerateContentResponse>(chunkSchema, chunk, provider, "chunk");
}
