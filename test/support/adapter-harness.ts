import { afterEach, beforeEach, expect } from "vitest";
import type {
  AssistantMessage,
  EffectiveContext,
  Message,
  ModelClient,
  ModelRequest,
  StreamEvent,
  ToolCallBlock,
  ToolResultBlock,
  UserMessage,
} from "../../src/core/index.js";
import { PantoError } from "../../src/core/index.js";
import type { AdapterOptions } from "../../src/providers/adapter-options.js";
import type {
  FakeReply,
  FakeServer,
  FakeServerOptions,
  RecordedRequest,
} from "../../src/simulator/fake-provider-types.js";

/** What an adapter test sends: a model request without the model, which the client supplies. */
export type AdapterRequest = Omit<ModelRequest, "model">;

export interface AdapterHarnessConfig {
  /** Starts this wire format's scriptable fake server. */
  startServer: (options?: FakeServerOptions) => Promise<FakeServer>;
  /** The adapter factory under test. */
  createClient: (options: AdapterOptions) => ModelClient;
  provider: string;
  model: string;
  /** `retry.maxRetries` of the default client (its base delay is always 1 ms). */
  maxRetries: number;
  /** Starts a default fake server before every test; otherwise each test calls `start` itself. */
  startBeforeEach: boolean;
}

export interface AdapterHarness {
  /** The running test's fake server: whichever `start` last started. */
  readonly server: FakeServer;
  /** Closes the running fake server, if any, and starts a fresh one with these options. */
  start(options?: FakeServerOptions): Promise<FakeServer>;
  /** The adapter under test, pointed at the running fake server with a test key and tiny retry delays. */
  client(overrides?: Partial<AdapterOptions>): ModelClient;
  /** Streams `request` (by default `hello`) and returns the final message and every event on the way. */
  run(
    overrides?: Partial<AdapterOptions>,
    request?: AdapterRequest,
    signal?: AbortSignal,
  ): Promise<{ message: AssistantMessage; events: StreamEvent[] }>;
  /** Sends the given message context and returns the request body the server received. */
  bodyFor(context: EffectiveContext, extra?: Partial<AdapterRequest>): Promise<unknown>;
}

/** A stable handle on the fake server of the running test, so test bodies can keep one name for it. */
class RunningServer implements FakeServer {
  current: FakeServer | undefined;

  private get live(): FakeServer {
    if (this.current === undefined) throw new Error("no fake server is running: call start() first");
    return this.current;
  }

  get url(): string {
    return this.live.url;
  }

  get requests(): RecordedRequest[] {
    return this.live.requests;
  }

  get infoRequests(): RecordedRequest[] {
    return this.live.infoRequests;
  }

  enqueue(...replies: FakeReply[]): void {
    this.live.enqueue(...replies);
  }

  close(): Promise<void> {
    return this.live.close();
  }
}

/**
 * The fake server and client setup every adapter test file shares. Call once at the top of the
 * file: it registers the hooks that start (if asked) and close the fake server around each test.
 */
export function adapterHarness(config: AdapterHarnessConfig): AdapterHarness {
  const server = new RunningServer();

  async function stop(): Promise<void> {
    const running = server.current;
    server.current = undefined;
    await running?.close();
  }

  async function start(options?: FakeServerOptions): Promise<FakeServer> {
    await stop();
    server.current = await config.startServer(options);
    return server;
  }

  function client(overrides: Partial<AdapterOptions> = {}): ModelClient {
    return config.createClient({
      provider: config.provider,
      model: config.model,
      apiKey: "test-key",
      baseURL: server.url,
      retry: { baseDelayMs: 1, maxRetries: config.maxRetries },
      ...overrides,
    });
  }

  async function run(
    overrides: Partial<AdapterOptions> = {},
    request: AdapterRequest = hello,
    signal?: AbortSignal,
  ): Promise<{ message: AssistantMessage; events: StreamEvent[] }> {
    const events: StreamEvent[] = [];
    const message = await client(overrides).stream(request, {
      onEvent: (event) => events.push(event),
      ...(signal === undefined ? {} : { signal }),
    });
    return { message, events };
  }

  async function bodyFor(context: EffectiveContext, extra: Partial<AdapterRequest> = {}): Promise<unknown> {
    await client().stream({ systemPrompt: "You are panto.", context, tools: [], ...extra });
    return server.requests[server.requests.length - 1]?.body;
  }

  if (config.startBeforeEach) {
    beforeEach(async () => {
      await start();
    });
  }
  afterEach(stop);

  return { server, start, client, run, bodyFor };
}

/** A terse system prompt and one user "hi". */
export const hello: AdapterRequest = {
  systemPrompt: "You are terse.",
  context: { messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }] },
  tools: [],
};

export const user = (text: string): UserMessage => ({ role: "user", content: [{ type: "text", text }] });

/** A tool's text result for the call `toolCallId`. */
export const toolResult = (
  toolCallId: string,
  toolName: string,
  text: string,
  isError = false,
): ToolResultBlock => ({
  type: "tool-result",
  toolCallId,
  toolName,
  content: [{ type: "text", text }],
  isError,
});

export function request(messages: Message[], extra: Partial<AdapterRequest> = {}): AdapterRequest {
  return { systemPrompt: "You are panto.", context: { messages }, tools: [], ...extra };
}

/**
 * One tool-use turn as `identity`'s adapter recorded it: "read a and b", answered with signed and
 * encrypted thinking, text and two parallel calls, whose results came back out of order (one failed).
 */
export function parallelReadTurn(identity: Pick<AssistantMessage, "provider" | "api" | "model">): Message[] {
  return [
    user("read a and b"),
    {
      role: "assistant",
      ...identity,
      stopReason: "tool-use",
      content: [
        { type: "thinking", text: "both", signature: "rs_1", redacted: "ENC" },
        { type: "text", text: "Reading." },
        { type: "tool-call", id: "call_a", name: "read", arguments: { path: "a" } },
        { type: "tool-call", id: "call_b", name: "read", arguments: { path: "b" } },
      ],
    },
    {
      role: "tool",
      content: [toolResult("call_b", "read", "B"), toolResult("call_a", "read", "no such file", true)],
    },
  ];
}

/**
 * A user's "look" with a PNG, and the screenshot tool's answer (text and a JPEG) to a call
 * `identity`'s adapter recorded: images from both places a wire can carry them.
 */
export function screenshotTurn(
  identity: Pick<AssistantMessage, "provider" | "api" | "model">,
  call: { id: string; name: string; text: string },
): Message[] {
  return [
    {
      role: "user",
      content: [
        { type: "text", text: "look" },
        { type: "image", mediaType: "image/png", data: "iVBOR" },
      ],
    },
    {
      role: "assistant",
      ...identity,
      stopReason: "tool-use",
      content: [{ type: "tool-call", id: call.id, name: call.name, arguments: {} }],
    },
    {
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: call.id,
          toolName: call.name,
          content: [
            { type: "text", text: call.text },
            { type: "image", mediaType: "image/jpeg", data: "/9j/" },
          ],
          isError: false,
        },
      ],
    },
  ];
}

/** An Anthropic answer with signed thinking (which no other API can verify) and these `ls` calls. */
export function foreignToolCalls(...calls: Array<{ id: string; path?: string }>): AssistantMessage {
  return {
    role: "assistant",
    provider: "anthropic",
    api: "anthropic-messages",
    model: "claude",
    stopReason: "tool-use",
    content: [
      { type: "thinking", text: "hmm", signature: "anthropic-sig" },
      ...calls.map(
        ({ id, path }): ToolCallBlock => ({
          type: "tool-call",
          id,
          name: "ls",
          arguments: path === undefined ? {} : { path },
        }),
      ),
    ],
  };
}

/** Builds assistant messages as this provider's adapter records them. */
export function assistantOf(
  defaults: Pick<AssistantMessage, "provider" | "api">,
): (content: AssistantMessage["content"], extra?: Partial<AssistantMessage>) => AssistantMessage {
  return (content, extra = {}) => ({
    role: "assistant",
    content,
    ...defaults,
    model: "m",
    stopReason: "stop",
    ...extra,
  });
}

/** The error the promise rejects with, asserted to be a PantoError. */
export async function rejection(promise: Promise<unknown>): Promise<PantoError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(PantoError);
  return error as PantoError;
}

/** The error the promise rejects with, asserted only to be there. */
export async function failure(promise: Promise<unknown>): Promise<PantoError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeDefined();
  return error as PantoError;
}
