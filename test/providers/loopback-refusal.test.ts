import { describe, expect, it } from "vitest";
import { PantoError } from "../../src/core/index.js";
import { isLoopbackHost, loopbackRefusal } from "../../src/providers/shared/loopback-refusal.js";

function refusedError(code = "ECONNREFUSED"): PantoError {
  const system = Object.assign(new Error(`connect ${code}`), { code });
  return new PantoError("network", "local: connection failed: fetch failed", {
    retryable: true,
    provider: "local",
    cause: new TypeError("fetch failed", { cause: system }),
  });
}

describe("loopbackRefusal", () => {
  it("takes 127.0.0.0/8, ::1 and localhost as this machine, and nothing else", () => {
    for (const host of [
      "127.0.0.1",
      "127.8.9.10",
      "[::1]",
      "localhost",
      "LOCALHOST",
      "api.localhost",
      "[::ffff:127.0.0.1]",
    ])
      expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ["10.0.0.1", "128.0.0.1", "example.com", "localhost.example.com", "[::2]", "0.0.0.0"])
      expect(isLoopbackHost(host), host).toBe(false);
  });

  it("makes a refused loopback connection a network error that is not retried, naming the server by port", () => {
    const error = loopbackRefusal(refusedError(), "http://[::1]:1234/v1");
    expect(error).toMatchObject({
      code: "network",
      retryable: false,
      nothingListening: true,
      provider: "local",
    });
    expect(error?.message).toBe(
      "local: nothing is listening on http://[::1]:1234: is LM Studio's local server running? (connection refused; not retried)",
    );
  });

  it("leaves other hosts and other network failures to the retries", () => {
    expect(loopbackRefusal(refusedError(), "http://10.1.2.3:11434/v1")).toBeUndefined();
    expect(loopbackRefusal(refusedError("ECONNRESET"), "http://127.0.0.1:11434/v1")).toBeUndefined();
    const server = new PantoError("server", "boom", { retryable: true, status: 503 });
    expect(loopbackRefusal(server, "http://127.0.0.1:11434/v1")).toBeUndefined();
  });

  it("takes an AggregateError refused on every address (localhost tried as ::1 and 127.0.0.1)", () => {
    const both = new AggregateError(
      [
        Object.assign(new Error("a"), { code: "ECONNREFUSED" }),
        Object.assign(new Error("b"), { code: "ECONNREFUSED" }),
      ],
      "all failed",
    );
    const error = new PantoError("network", "x", { retryable: true, provider: "ollama", cause: both });
    expect(loopbackRefusal(error, "http://localhost:11434")?.message).toContain("is `ollama serve` running?");
  });
});
