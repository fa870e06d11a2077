import { createServer } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type ModelClient, PantoError } from "../../src/core/index.js";
import type { AdapterOptions } from "../../src/providers/adapter-options.js";
import {
  DEFAULT_FIRST_BYTE_TIMEOUT_MS,
  DEFAULT_IDLE_TIMEOUT_MS,
  MAX_TIMEOUT_RETRIES,
  type RequestWatchdog,
  runWithRetry,
} from "../../src/providers/shared/index.js";
import type { FakeReply, FakeServer } from "../../src/simulator/fake-provider-types.js";
import { ADAPTER_FAMILIES, type AdapterFamily } from "../support/adapter-families.js";
import { failure, hello } from "../support/adapter-harness.js";

const KEY = "sk-deadline-test-0123456789";

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  vi.useRealTimers();
});

function client(family: AdapterFamily, url: string, overrides: Partial<AdapterOptions>): ModelClient {
  return family.createClient({
    provider: family.name,
    model: "test-model",
    apiKey: KEY,
    baseURL: url,
    retry: { maxRetries: 0, baseDelayMs: 1 },
    firstByteTimeoutMs: 5_000,
    idleTimeoutMs: 5_000,
    requestTimeoutMs: 20_000,
    ...overrides,
  });
}

async function failWith(family: AdapterFamily, reply: FakeReply, overrides: Partial<AdapterOptions>) {
  server = await family.startServer();
  server.enqueue(reply, reply, reply, reply, reply);
  const error = await failure(client(family, server.url, overrides).stream(hello));
  const port = new URL(server.url).port;
  return { error, endpoint: `127.0.0.1:${port}` };
}

describe.each(ADAPTER_FAMILIES)("deadlines of a $name request", (family) => {
  it("fails a keepalive-only stream on the idle timeout: keepalives are not progress", async () => {
    const { error, endpoint } = await failWith(
      family,
      { type: "keepalive", text: family.keepalive, intervalMs: 20 },
      { idleTimeoutMs: 300 },
    );
    expect(error).toBeInstanceOf(PantoError);
    expect(error.code).toBe("network");
    expect(error.message).toBe(
      `${family.name}: idle timeout: no content from ${endpoint} for 300 ms (timeouts.idle_ms)`,
    );
  });

  it("fails a keepalive-only stream on the request deadline when the idle timeout is longer", async () => {
    const { error, endpoint } = await failWith(
      family,
      { type: "keepalive", text: family.keepalive, intervalMs: 20 },
      { idleTimeoutMs: 10_000, requestTimeoutMs: 400 },
    );
    expect(error.code).toBe("network");
    expect(error.message).toBe(
      `${family.name}: request timeout: the request to ${endpoint} took longer than 400 ms (timeouts.request_ms)`,
    );
  });

  it("fails a server that accepts and never answers on the first-byte timeout", async () => {
    const { error, endpoint } = await failWith(family, { type: "silent" }, { firstByteTimeoutMs: 300 });
    expect(error.code).toBe("network");
    expect(error.message).toBe(
      `${family.name}: first-byte timeout: no response from ${endpoint} within 300 ms (timeouts.first_byte_ms)`,
    );
  });

  it("fails a server that sends headers and then nothing on the idle timeout", async () => {
    const { error, endpoint } = await failWith(
      family,
      { type: "hang" },
      { firstByteTimeoutMs: 5_000, idleTimeoutMs: 300 },
    );
    expect(error.message).toBe(
      `${family.name}: idle timeout: no content from ${endpoint} for 300 ms (timeouts.idle_ms)`,
    );
  });

  it("retries a timed-out attempt once, however many retries are allowed", async () => {
    server = await family.startServer();
    server.enqueue({ type: "silent" }, { type: "silent" }, { type: "silent" }, { type: "silent" });
    const retries: string[] = [];
    const options = { firstByteTimeoutMs: 150, retry: { maxRetries: 4, baseDelayMs: 1 } };
    const error = await failure(
      client(family, server.url, options).stream(hello, {
        onEvent: (event) => {
          if (event.type === "retry-wait") retries.push(event.reason);
        },
      }),
    );
    expect(error.message).toContain("first-byte timeout");
    expect(retries).toHaveLength(MAX_TIMEOUT_RETRIES);
  });

  it("reports Ctrl-C (the caller's abort) at once while the server is silent", async () => {
    server = await family.startServer();
    server.enqueue({ type: "silent" });
    const controller = new AbortController();
    const pending = failure(
      client(family, server.url, { firstByteTimeoutMs: 60_000 }).stream(hello, { signal: controller.signal }),
    );
    setTimeout(() => controller.abort(), 100);
    const error = await pending;
    expect(error.code).toBe("aborted");
  });

  it("names the endpoint (scheme, host and port, never the key) when a loopback connection is refused, and does not retry it", async () => {
    const port = await closedPort();
    const error = await failure(client(family, `http://127.0.0.1:${port}/v1?key=${KEY}`, {}).stream(hello));
    expect(error.code).toBe("network");
    expect(error.retryable).toBe(false);
    expect(error.message).toContain(`nothing is listening on http://127.0.0.1:${port}: is`);
    expect(error.message).not.toContain(KEY);
    expect(error.message).not.toContain("?key");
  });
});

/** A port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const address = probe.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe("default deadlines, on a simulated clock", () => {
  /**
   * Runs the real retry loop and watchdog with default settings against an attempt that behaves
   * like a server (`behave` calls watchdog hooks the way an adapter would), and returns how much
   * simulated time passed before the request was given up, and how many attempts it made.
   */
  async function giveUpAfter(behave: (watchdog: RequestWatchdog) => void) {
    vi.useFakeTimers();
    const started = Date.now();
    let attempts = 0;
    let endedAt: number | undefined;
    let caught: unknown;
    const request = runWithRetry({ provider: "p", model: "m", retry: {} }, undefined, {
      endpoint: "https://api.example.test/v1",
      toPantoError: (error) => new PantoError("other", String(error)),
      attempt: (watchdog) => {
        attempts++;
        behave(watchdog);
        return new Promise<never>((_, reject) => {
          watchdog.signal.addEventListener("abort", () => reject(watchdog.signal.reason));
        });
      },
    }).catch((error: unknown) => {
      caught = error;
      endedAt = Date.now();
    });
    await vi.runAllTimersAsync();
    await request;
    expect(endedAt).toBeDefined();
    return {
      elapsedMs: (endedAt ?? Number.POSITIVE_INFINITY) - started,
      attempts,
      error: caught as PantoError,
    };
  }

  it("gives up on a silent server within three minutes, retries included", async () => {
    const { elapsedMs, attempts, error } = await giveUpAfter(() => {});
    expect(error.message).toBe(
      `p: first-byte timeout: no response from api.example.test:443 within ${DEFAULT_FIRST_BYTE_TIMEOUT_MS} ms (timeouts.first_byte_ms)`,
    );
    expect(attempts).toBe(2);
    expect(elapsedMs).toBeGreaterThanOrEqual(2 * DEFAULT_FIRST_BYTE_TIMEOUT_MS);
    expect(elapsedMs).toBeLessThan(180_000);
  });

  it("gives up on headers followed by silence within three minutes, retries included", async () => {
    const { elapsedMs, error } = await giveUpAfter((watchdog) => watchdog.responded());
    expect(error.message).toContain("idle timeout");
    expect(elapsedMs).toBeGreaterThanOrEqual(DEFAULT_IDLE_TIMEOUT_MS);
    expect(elapsedMs).toBeLessThan(180_000);
  });

  it("gives up on a keepalive-only stream within three minutes: pings never reset the idle timer", async () => {
    const { elapsedMs, error } = await giveUpAfter((watchdog) => {
      watchdog.responded();
      // Keepalives arrive every 15 s; an adapter sees them but reports no progress.
      const timer = setInterval(() => {}, 15_000);
      watchdog.signal.addEventListener("abort", () => clearInterval(timer));
    });
    expect(error.message).toContain("idle timeout");
    expect(elapsedMs).toBeLessThan(180_000);
  });

  it("keeps a slowly progressing stream alive past the idle timeout, up to the request deadline", async () => {
    const { elapsedMs, error } = await giveUpAfter((watchdog) => {
      watchdog.responded();
      const timer = setInterval(() => watchdog.progress(), DEFAULT_IDLE_TIMEOUT_MS / 2);
      watchdog.signal.addEventListener("abort", () => clearInterval(timer));
    });
    expect(error.message).toContain("request timeout");
    expect(elapsedMs).toBe(600_000);
  });
});
