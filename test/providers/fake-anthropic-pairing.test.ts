import { afterEach, describe, expect, it } from "vitest";
import type { FakeServer } from "../../src/simulator/fake-provider-types.js";
import { startFakeAnthropicServer } from "../../src/simulator/index.js";

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function send(messages: unknown[]): Promise<{ status: number; text: string }> {
  const response = await fetch(`${server?.url}/v1/messages`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model: "claude-test", max_tokens: 10, messages }),
  });
  return { status: response.status, text: await response.text() };
}

const use = { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "bash", input: {} }] };
const result = { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "ok" }] };

describe("the fake Anthropic server with requirePairing", () => {
  it("accepts paired calls and results, and rejects either one alone with the API's own error", async () => {
    server = await startFakeAnthropicServer({ requirePairing: true });
    expect((await send([{ role: "user", content: "hi" }, use, result])).status).toBe(200);
    const missing = await send([{ role: "user", content: "hi" }, use, { role: "user", content: "next" }]);
    expect(missing.status).toBe(400);
    expect(missing.text).toContain(
      "messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_1",
    );
    const stray = await send([
      { role: "user", content: "hi" },
      { role: "assistant", content: "no call" },
      result,
    ]);
    expect(stray.text).toContain(
      "messages.2.content.0: unexpected `tool_use_id` found in `tool_result` blocks: toolu_1",
    );
    // Rejections do not use up the scripted replies.
    expect(server.requests).toHaveLength(3);
  });
});
