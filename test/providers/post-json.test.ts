import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { PantoError } from "../../src/core/index.js";
import { createAnthropicClient } from "../../src/providers/anthropic/index.js";
import { postJson, readBodyText, readSseEvents } from "../../src/providers/shared/index.js";

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map(
      (server) =>
        new Promise((resolve) => {
          server.closeAllConnections();
          server.close(resolve);
        }),
    ),
  );
});

/** A real HTTP server on 127.0.0.1 answering every request with `handle`. */
async function serve(handle: (request: IncomingMessage, response: ServerResponse) => void): Promise<string> {
  const server = createServer(handle);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const hello = {
  systemPrompt: "S",
  context: { messages: [{ role: "user" as const, content: [{ type: "text" as const, text: "hi" }] }] },
  tools: [],
};

describe("postJson, the node:http transport of the Anthropic adapter", () => {
  it("sends the body with its length and headers, and hands back status, lower-case headers and body", async () => {
    let received: { headers: IncomingMessage["headers"]; body: string } | undefined;
    const url = await serve((request, response) => {
      let body = "";
      request.on("data", (chunk: Buffer) => {
        body += chunk.toString();
      });
      request.on("end", () => {
        received = { headers: request.headers, body };
        response.writeHead(201, { "X-Answer": "yes" }).end("done ü");
      });
    });
    const answer = await postJson(`${url}/v1/messages`, {
      provider: "p",
      headers: { "content-type": "application/json", "x-team": "panto" },
      body: '{"text":"ü"}',
      signal: new AbortController().signal,
    });
    expect(answer.status).toBe(201);
    expect(answer.headers["x-answer"]).toBe("yes");
    expect(await readBodyText(answer.body)).toBe("done ü");
    expect(received?.body).toBe('{"text":"ü"}');
    expect(received?.headers["content-length"]).toBe(String(Buffer.byteLength('{"text":"ü"}')));
    expect(received?.headers["x-team"]).toBe("panto");
  });

  it("decodes a gzip body a proxy compressed unasked, so a compressed error is classified from its text", async () => {
    const error = JSON.stringify({
      type: "error",
      error: { type: "rate_limit_error", message: "slow down" },
    });
    const url = await serve((_request, response) => {
      response
        .writeHead(429, {
          "content-type": "application/json",
          "content-encoding": "gzip",
          "retry-after": "7",
        })
        .end(gzipSync(error));
    });
    const failure = await createAnthropicClient({
      provider: "anthropic",
      model: "m",
      apiKey: "k",
      baseURL: url,
      retry: { maxRetries: 0 },
    })
      .stream(hello)
      .catch((thrown: unknown) => thrown);
    expect(failure).toBeInstanceOf(PantoError);
    expect(failure).toMatchObject({ code: "rate_limit", status: 429, retryAfterMs: 7000 });
    expect((failure as PantoError).message).toContain("slow down");
  });

  it("rejects a refused connection with a retryable network error that keeps the system's code", async () => {
    const url = await serve(() => undefined);
    const closed = servers.pop();
    await new Promise((resolve) => closed?.close(resolve));
    const failure = await postJson(url, {
      provider: "p",
      headers: {},
      body: "{}",
      signal: new AbortController().signal,
    }).catch((thrown: unknown) => thrown);
    expect(failure).toBeInstanceOf(PantoError);
    expect(failure).toMatchObject({ code: "network", retryable: true });
    expect(((failure as PantoError).cause as { code?: string }).code).toBe("ECONNREFUSED");
  });

  it("closes the connection when the reader stops before the server ends the body", async () => {
    let closed: Promise<void> | undefined;
    const url = await serve((_request, response) => {
      closed = new Promise((resolve) => response.on("close", () => resolve()));
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write("data: one\n\n");
      // ...and never ends.
    });
    const answer = await postJson(url, {
      provider: "p",
      headers: {},
      body: "{}",
      signal: new AbortController().signal,
    });
    for await (const event of readSseEvents(answer.body)) {
      expect(event.data).toBe("one");
      break;
    }
    await closed;
    expect(closed).toBeDefined();
  });

  it("rejects with the signal's reason when aborted before the answer", async () => {
    const url = await serve(() => undefined);
    const controller = new AbortController();
    const sent = postJson(url, { provider: "p", headers: {}, body: "{}", signal: controller.signal });
    const reason = new Error("stop now");
    controller.abort(reason);
    await expect(sent).rejects.toBe(reason);
  });
});
