import { describe, expect, it } from "vitest";
import { readableErrorMessage } from "../../src/providers/readable-error-message.js";

describe("readableErrorMessage", () => {
  it("gives the provider's message with its error type instead of the whole JSON", () => {
    expect(
      readableErrorMessage(
        '{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 219898 tokens > 200000 maximum"}}',
      ),
    ).toBe("invalid_request_error: prompt is too long: 219898 tokens > 200000 maximum");
  });

  it("digs the innermost message out of a gateway's nested raw body", () => {
    const body = JSON.stringify({
      error: {
        message: "Provider returned error",
        code: 400,
        metadata: {
          raw: JSON.stringify({ error: { message: "This model's maximum context length is 8192 tokens" } }),
        },
      },
    });
    expect(readableErrorMessage(body)).toBe("This model's maximum context length is 8192 tokens");
  });

  it("keeps plain text, strips HTML pages, and says when there is no body", () => {
    expect(readableErrorMessage("Too many tokens, please wait before trying again.")).toBe(
      "Too many tokens, please wait before trying again.",
    );
    expect(readableErrorMessage("<html><head><title>504 Gateway Time-out</title></head></html>")).toBe(
      "504 Gateway Time-out",
    );
    expect(readableErrorMessage("   ")).toBe("(no body)");
  });

  it("reads string-valued error fields (Ollama) and cuts very long bodies", () => {
    expect(readableErrorMessage('{"error":"the input length exceeds the context length"}')).toBe(
      "the input length exceeds the context length",
    );
    expect(readableErrorMessage("x".repeat(1000)).length).toBeLessThan(410);
  });

  it("writes out control characters from the body, so it cannot restyle the terminal (fuzz find)", () => {
    expect(readableErrorMessage('{"error":{"message":"quota \\u001b[2J\\u0007exhausted \\u009b1m"}}')).toBe(
      "quota \\u001b[2J\\u0007exhausted \\u009b1m",
    );
  });
});
