import { describe, expect, it } from "vitest";
import { ERROR_CODES, isPantoError, PantoError } from "../../src/core/index.js";

describe("PantoError", () => {
  it("carries its code, retryability, status and provider", () => {
    const error = new PantoError("rate_limit", "slow down", {
      retryable: true,
      status: 429,
      provider: "openai",
    });
    expect(error.code).toBe("rate_limit");
    expect(error.retryable).toBe(true);
    expect(error.status).toBe(429);
    expect(error.provider).toBe("openai");
    expect(isPantoError(error)).toBe(true);
    expect(isPantoError(new Error("plain"))).toBe(false);
  });

  it("defaults to not retryable", () => {
    expect(new PantoError("context_overflow", "too long").retryable).toBe(false);
  });

  it("has a closed set of codes that includes the ones the spec relies on", () => {
    expect(ERROR_CODES).toContain("context_overflow");
    expect(ERROR_CODES).toContain("rate_limit");
    expect(new Set(ERROR_CODES).size).toBe(ERROR_CODES.length);
  });
});
