import { afterEach, describe, expect, it } from "vitest";
import type { AssistantMessage, Message, ModelRequest, ToolDefinition, Usage } from "../../src/core/index.js";
import { createAnthropicClient } from "../../src/providers/anthropic/index.js";
import {
  type CachingAnthropicServer,
  startCachingAnthropicServer,
} from "../../src/simulator/caching-anthropic-server.js";
import { PromptCacheModel } from "../../src/simulator/prompt-cache-model.js";

const servers: CachingAnthropicServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const tools: ToolDefinition[] = [
  {
    name: "bash",
    description: "Runs a command.",
    parameters: { properties: { command: { type: "string" } }, required: ["command"] },
  },
];
// Long enough that the tools-and-system prefix passes the 1,024-token minimum on its own.
const systemPrompt = `You are a careful agent. ${"Follow the project's rules. ".repeat(200)}`;
const user = (text: string): Message => ({ role: "user", content: [{ type: "text", text }] });
const assistant = (text: string): AssistantMessage => ({
  role: "assistant",
  provider: "anthropic",
  api: "anthropic-messages",
  model: "claude-sonnet-4-5",
  content: [{ type: "text", text }],
  stopReason: "stop",
});

/** The real adapter over HTTP to the caching fake, with a clock the test moves. */
async function start() {
  let now = 1_000_000;
  const cache = new PromptCacheModel({ now: () => now });
  const server = await startCachingAnthropicServer({
    contextWindow: 20_000,
    cache,
    answer: () => ({ type: "text", text: "ok" }),
  });
  servers.push(server);
  const client = createAnthropicClient({
    provider: "anthropic",
    model: "claude-sonnet-4-5",
    apiKey: "k",
    baseURL: server.url,
  });
  const send = async (messages: Message[], settledToolCallIds?: string[]): Promise<Usage> => {
    const context = { messages, ...(settledToolCallIds === undefined ? {} : { settledToolCallIds }) };
    const request: ModelRequest = { model: "claude-sonnet-4-5", systemPrompt, context, tools };
    const message = await client.stream(request);
    if (message.usage === undefined) throw new Error("no usage reported");
    return message.usage;
  };
  const advance = (ms: number): void => {
    now += ms;
  };
  return { server, send, advance };
}

describe("the caching fake Anthropic server (the context benchmark's prompt cache)", () => {
  it("reads a repeated prefix, writes a changed or expired one, and reports usage the API's way", async () => {
    const { server, send, advance } = await start();
    const first = [user(`Read the parser. ${"Context. ".repeat(1000)}`)];

    const cold = await send(first);
    expect(cold.cacheReadTokens).toBe(0);
    // The breakpoint on the latest user message covers the whole prompt: all of it is written.
    expect(cold.cacheWriteTokens).toBe(cold.promptTokens);
    expect(server.exchanges[0]?.inputTokens).toBe(0);

    advance(60_000);
    const second = [...first, assistant("Read it."), user("Now fix the bug.")];
    const repeated = await send(second);
    expect(repeated.cacheReadTokens).toBe(cold.promptTokens);
    expect(repeated.cacheWriteTokens).toBe(repeated.promptTokens - cold.promptTokens);

    advance(60_000);
    const edited = [user("Read the lexer instead."), ...second.slice(1)];
    const changed = await send(edited);
    // Only tools and system (their own breakpoints) still match; the edited conversation is rewritten.
    expect(changed.cacheReadTokens).toBeGreaterThan(1024);
    expect(changed.cacheReadTokens).toBeLessThan(cold.promptTokens / 2);
    expect((changed.cacheReadTokens ?? 0) + (changed.cacheWriteTokens ?? 0)).toBe(changed.promptTokens);

    advance(4 * 60_000);
    const refreshed = await send(edited);
    expect(refreshed.cacheReadTokens).toBe(changed.promptTokens);

    // Five minutes and a second after the last use, the whole prefix has expired.
    advance(5 * 60_000 + 1_000);
    const expired = await send(edited);
    expect(expired.cacheReadTokens).toBe(0);
    expect(expired.cacheWriteTokens).toBe(expired.promptTokens);
    expect(server.exchanges.map((exchange) => exchange.kind)).toEqual(Array(5).fill("agent"));
    expect(server.exchanges.map((exchange) => exchange.continuity)).toEqual([
      "first",
      "extends",
      "rewritten",
      "extends",
      "expired",
    ]);
  });

  it("sees a request that changes an earlier tool result (a clearing) as a rewrite of the cached prefix", async () => {
    const { server, send, advance } = await start();
    const call: Message = {
      ...assistant(""),
      content: [{ type: "tool-call", id: "toolu_01", name: "bash", arguments: { command: "cat big.log" } }],
      stopReason: "tool-use",
    };
    const result = (text: string): Message => ({
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: "toolu_01",
          toolName: "bash",
          isError: false,
          content: [{ type: "text", text }],
        },
      ],
    });
    const asked = user(`Look at the log. ${"Context. ".repeat(1000)}`);
    const full = [asked, call, result("log line\n".repeat(2000)), assistant("Seen."), user("Next.")];
    await send(full);
    advance(10_000);
    await send([...full, assistant("Done."), user("And now?")]);
    advance(10_000);
    const stubbed = [
      asked,
      call,
      result("[cleared: output of bash]"),
      ...full.slice(3),
      assistant("Done."),
      user("And now?"),
    ];
    const cleared = await send(stubbed);
    advance(10_000);
    await send([...stubbed, assistant("Still here."), user("Go on.")]);

    expect(server.exchanges.map((exchange) => [exchange.continuity, exchange.changedToolResults])).toEqual([
      ["first", 0],
      ["extends", 0],
      ["rewritten", 1],
      ["extends", 0],
    ]);
    // What follows the changed result is written again; the prefix before it (tools, system, the question) is read.
    expect(cleared.cacheReadTokens).toBeGreaterThan(0);
    expect(cleared.cacheWriteTokens).toBe(cleared.promptTokens - (cleared.cacheReadTokens ?? 0));
  });

  it("keeps the prefix a one-hour breakpoint ends for an hour, and bills its writes apart", async () => {
    const { server, send, advance } = await start();
    const call: Message = {
      ...assistant(""),
      content: [{ type: "tool-call", id: "toolu_01", name: "bash", arguments: { command: "cat big.log" } }],
      stopReason: "tool-use",
    };
    const stub: Message = {
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: "toolu_01",
          toolName: "bash",
          isError: false,
          content: [{ type: "text", text: "[cleared to save context: output of bash]" }],
        },
      ],
    };
    const settled = [user(`Look at the log. ${"Context. ".repeat(1000)}`), call, stub];
    const later = [assistant("Seen."), user(`Next. ${"More context. ".repeat(500)}`)];
    const first = await send([...settled, ...later], ["toolu_01"]);
    // Everything through the settled result is written for the hour, the rest for five minutes.
    const hour = server.exchanges[0]?.longCacheWriteTokens ?? 0;
    expect(first.longCacheWriteTokens).toBe(hour);
    expect(hour).toBeGreaterThan(2_000);
    expect(first.cacheWriteTokens).toBe(first.promptTokens);
    expect(hour).toBeLessThan(first.promptTokens - 1_000);

    // Thirty minutes on, the five-minute part is gone and the hour's is read.
    advance(30 * 60_000);
    const resumed = await send([...settled, ...later, assistant("Done."), user("And now?")], ["toolu_01"]);
    expect(resumed.cacheReadTokens).toBe(hour);
    expect(resumed.longCacheWriteTokens).toBeUndefined();
    expect(server.exchanges[1]?.continuity).toBe("expired");

    // An hour and a minute after that read, nothing is left.
    advance(61 * 60_000);
    const gone = await send([...settled, ...later, assistant("Done."), user("And now?")], ["toolu_01"]);
    expect(gone.cacheReadTokens).toBe(0);
    expect(gone.longCacheWriteTokens).toBe(hour);
  });

  it("rejects a prompt above the window with Anthropic's overflow error, counting it", async () => {
    const { server, send } = await start();
    await expect(send([user("x".repeat(100_000))])).rejects.toMatchObject({ code: "context_overflow" });
    expect(server.overflows).toBe(1);
    expect(server.exchanges).toEqual([]);
  });
});
