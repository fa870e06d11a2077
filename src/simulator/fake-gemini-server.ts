import { optional } from "../core/index.js";
import {
  chunkText,
  type FakeAnswer,
  type FakeExchange,
  type FakeWireFormat,
  sendJson,
  startFakeServer,
  startSse,
  writeSse,
} from "./fake-http.js";
import type { FakeServer, FakeServerOptions, FakeUsage } from "./fake-provider-types.js";

/**
 * A fake Gemini API: POST /v1beta/models/{model}:streamGenerateContent?alt=sse (SSE, one
 * `data: {GenerateContentResponse}` per chunk and no terminal event: the stream simply ends after
 * the chunk with a finishReason) and :generateContent (one JSON response). Its `url` is the bare
 * host, like the SDK's httpOptions.baseUrl; the SDK adds the API version.
 */
export function startFakeGeminiServer(options?: FakeServerOptions): Promise<FakeServer> {
  return startFakeServer(geminiWireFormat, options);
}

type Part = Record<string, unknown>;
type Chunk = Record<string, unknown>;

const ROUTE = /^\/v1(?:beta|alpha)?\/models\/([^/:]+):(streamGenerateContent|generateContent)$/;

const geminiWireFormat: FakeWireFormat = {
  modelList: "gemini",
  urlPath: "",
  accepts: (request) => request.method === "POST" && ROUTE.test(pathOf(request.path)),
  isStreaming: (request) => ROUTE.exec(pathOf(request.path))?.[2] === "streamGenerateContent",
  overflowError: (requestTokens, contextWindow) => ({
    status: 400,
    body: JSON.stringify({
      error: {
        code: 400,
        message: `The input token count (${requestTokens}) exceeds the maximum number of tokens allowed (${contextWindow}).`,
        status: "INVALID_ARGUMENT",
      },
    }),
  }),
  writeAnswer(res, answer, exchange) {
    const groups = partGroups(answer);
    const ending = {
      ...(exchange.usage === null ? {} : { usageMetadata: usageMetadata(exchange.usage) }),
      modelVersion: modelOf(exchange),
      responseId: `fake-response-${exchange.index}`,
    };
    if (!this.isStreaming(exchange.request)) {
      sendJson(res, { ...chunk(mergeParts(groups.flat()), "STOP"), ...ending });
      return;
    }
    startSse(res);
    groups.forEach((parts, index) => {
      const last = index === groups.length - 1;
      writeSse(res, last ? { ...chunk(parts, "STOP"), ...ending } : chunk(parts));
    });
    res.end();
  },
  writeStreamError(res, body) {
    startSse(res);
    writeSse(res, chunk([{ text: "Let me " }]));
    writeSse(res, singleLine(body));
    res.end();
  },
  writePartialStream(res, text) {
    startSse(res);
    for (const piece of chunkText(text)) writeSse(res, chunk([{ text: piece }]));
  },
};

/**
 * The parts of an answer, one group per streamed chunk: thought pieces, text pieces, then all
 * function calls together (Gemini sends a call whole). Like Gemini 3, a thinking answer carries
 * its thought signature on the first function call, or else on the first text part.
 */
function partGroups(answer: FakeAnswer): Part[][] {
  const groups: Part[][] = [];
  for (const piece of chunkText(answer.thinking ?? "")) groups.push([{ text: piece, thought: true }]);
  for (const piece of chunkText(answer.text ?? "")) groups.push([{ text: piece }]);
  const calls = answer.type === "tool-calls" ? answer.calls : [];
  if (calls.length > 0) {
    groups.push(
      calls.map((call) => ({
        functionCall: {
          name: call.name,
          args: call.arguments,
          ...optional("id", call.id),
        },
      })),
    );
  }
  if (groups.length === 0) groups.push([{ text: "" }]);
  if (answer.thinking !== undefined) {
    const signed =
      groups.flat().find((part) => part.functionCall !== undefined) ??
      groups.flat().find((part) => part.thought !== true);
    if (signed !== undefined)
      signed.thoughtSignature = `sig_${Buffer.from(answer.thinking).toString("base64").slice(0, 16)}`;
  }
  return groups;
}

/** One JSON response holds one thought part, one text part and the calls. */
function mergeParts(parts: Part[]): Part[] {
  const merged: Part[] = [];
  for (const part of parts) {
    const last = merged[merged.length - 1];
    const sameKind =
      last !== undefined &&
      typeof last.text === "string" &&
      typeof part.text === "string" &&
      last.thought === part.thought;
    if (sameKind && part.thoughtSignature === undefined) last.text = String(last.text) + String(part.text);
    else merged.push({ ...part });
  }
  return merged;
}

function chunk(parts: Part[], finishReason?: string): Chunk {
  return {
    candidates: [
      {
        content: { parts, role: "model" },
        ...optional("finishReason", finishReason),
        index: 0,
      },
    ],
  };
}

/** FakeUsage counts cached and thought tokens apart; Gemini's prompt count includes the cached ones. */
function usageMetadata(usage: FakeUsage): Record<string, unknown> {
  const prompt = usage.input + (usage.cacheRead ?? 0);
  return {
    promptTokenCount: prompt,
    candidatesTokenCount: usage.output,
    totalTokenCount: prompt + usage.output + (usage.reasoning ?? 0),
    ...optional("cachedContentTokenCount", usage.cacheRead),
    ...optional("thoughtsTokenCount", usage.reasoning),
  };
}

function modelOf(exchange: FakeExchange): string {
  return ROUTE.exec(pathOf(exchange.request.path))?.[1] ?? "gemini-fake";
}

function pathOf(path: string): string {
  return path.split("?")[0] ?? path;
}

/** An SSE data line cannot hold a newline: pretty JSON is re-serialised, anything else sent as is. */
function singleLine(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body));
  } catch {
    return body.replace(/\n/g, " ");
  }
}
