import type { AssistantMessage, ModelClient, ModelRequest, StopReason } from "../../src/core/index.js";
import { PantoError } from "../../src/core/index.js";
import type { AdapterOptions } from "../../src/providers/adapter-options.js";
import { invariant } from "../engine/fuzz-target.js";
import { checkMessage } from "./check-messages.js";
import { chunkedBody } from "./chunked-body.js";
import { expectOwnError } from "./expect-own-error.js";

const STOP_REASONS: ReadonlySet<StopReason> = new Set([
  "stop",
  "length",
  "tool-use",
  "content-filter",
  "error",
  "aborted",
]);
/** Errors that mean a bug in the code that threw them, not a bad answer. */
const PROGRAMMING_ERRORS = new Set(["TypeError", "RangeError", "ReferenceError"]);

const REQUEST: ModelRequest = {
  model: "m",
  systemPrompt: "You are panto.",
  context: { messages: [{ role: "user", content: [{ type: "text", text: "list the files" }] }] },
  tools: [
    {
      name: "bash",
      description: "Run a command",
      parameters: { type: "object", properties: { command: { type: "string" } }, required: ["command"] },
    },
  ],
};

/**
 * Runs one request through a real adapter whose server answers 200 with the input as its body,
 * delivered in pieces (through the adapter's `fetch` option: the transport, the sniffing, the event
 * reader and the stream reader all run as they do against a server). Invariants: the request ends
 * in an assistant message or a PantoError with a code; a PantoError does not wrap a programming
 * error (TypeError, RangeError, ReferenceError) thrown by panto's own code; the message is
 * well-formed (blocks of the types an assistant may hold, each with its fields), its stop reason
 * known, its usage figures finite and not negative, and its tool calls carry distinct ids.
 */
export async function runAdapterOnBody(
  create: (options: AdapterOptions) => ModelClient,
  provider: string,
  input: Buffer,
  bundleFile: string,
): Promise<void> {
  const fetchBody: typeof fetch = async () =>
    new Response(chunkedBody(new Uint8Array(input)), {
      status: 200,
      headers: { "content-type": "text/event-stream" },
    });
  const client = create({
    provider,
    model: "m",
    apiKey: "sk-fuzz",
    baseURL: "http://127.0.0.1:9",
    fetch: fetchBody,
    retry: { maxRetries: 0 },
  });
  let answer: AssistantMessage;
  try {
    answer = await client.stream(REQUEST);
  } catch (error) {
    expectOwnError(error, ["panto"]);
    const cause = (error as PantoError).cause;
    if (cause instanceof Error && PROGRAMMING_ERRORS.has(cause.name) && thrownBy(cause, bundleFile))
      throw cause;
    return;
  }
  checkAnswer(answer);
}

function thrownBy(error: Error, bundleFile: string): boolean {
  const firstFrame = (error.stack ?? "").split("\n").find((line) => line.trim().startsWith("at "));
  return firstFrame?.includes(bundleFile) === true;
}

function checkAnswer(answer: AssistantMessage): void {
  invariant(answer.role === "assistant", `answer with role ${String(answer.role)}`);
  checkMessage(answer, "answer");
  invariant(STOP_REASONS.has(answer.stopReason), `stop reason ${String(answer.stopReason)}`);
  for (const [key, value] of Object.entries(answer.usage ?? {}))
    invariant(
      typeof value === "number" && Number.isFinite(value) && value >= 0,
      `usage ${key} = ${String(value)}`,
    );
  const ids = answer.content.flatMap((block) => (block.type === "tool-call" ? [block.id] : []));
  invariant(
    ids.every((id) => id !== ""),
    "a tool call with an empty id",
  );
  invariant(new Set(ids).size === ids.length, `tool calls sharing an id: ${ids.join(", ")}`);
}

export { PantoError };
