import { describe, expect, it } from "vitest";
import { ERROR_CODES } from "../../src/core/index.js";
import { classifyProviderError } from "../../src/providers/classify-provider-error.js";
import { classify, label, readFixture, THIRD_FIXTURE } from "../support/provider-error-fixtures.js";

/**
 * A third set of real error bodies, gathered after the classifier was written and never used to
 * tune it directly: providers and gateways the first two sets did not cover (Bedrock Titan, SGLang,
 * SambaNova, Fireworks, ERNIE, TensorRT-LLM, GitHub Models, Cloudflare and nginx pages...), plus traps.
 */
const entries = readFixture(THIRD_FIXTURE);

describe("the third fixture itself", () => {
  it("holds at least 30 scored bodies, overflows and traps both", () => {
    const scored = entries.filter((entry) => entry.scored);
    expect(scored.length).toBeGreaterThanOrEqual(30);
    expect(scored.some((entry) => entry.is_overflow)).toBe(true);
    expect(scored.some((entry) => !entry.is_overflow)).toBe(true);
  });

  it("names only codes from the closed set", () => {
    for (const entry of entries) {
      if (entry.expected_code !== undefined) expect(ERROR_CODES).toContain(entry.expected_code);
    }
  });
});

describe("overflow verdicts on the third fixture", () => {
  entries.forEach((entry, index) => {
    if (!entry.scored) {
      it(`returns a valid code for the ambiguous ${label(entry, index)}`, () => {
        expect(ERROR_CODES).toContain(classify(entry).code);
      });
      return;
    }
    it(`${entry.is_overflow ? "detects an overflow" : "sees no overflow"} in ${label(entry, index)}`, () => {
      expect(classify(entry).code === "context_overflow").toBe(entry.is_overflow);
    });
  });
});

describe("full codes on the third fixture", () => {
  entries.forEach((entry, index) => {
    if (entry.expected_code === undefined) return;
    it(`classifies ${label(entry, index)} as ${entry.expected_code}`, () => {
      expect(classify(entry).code).toBe(entry.expected_code);
    });
  });
});

describe("retry decisions on the third fixture", () => {
  entries.forEach((entry, index) => {
    if (entry.expected_retryable === undefined) return;
    it(`${entry.expected_retryable ? "retries" : "does not retry"} ${label(entry, index)}`, () => {
      expect(classify(entry).retryable).toBe(entry.expected_retryable);
    });
  });

  it("never retries an overflow", () => {
    for (const entry of entries.filter((candidate) => candidate.is_overflow && candidate.scored)) {
      expect(classify(entry)).toMatchObject({ code: "context_overflow", retryable: false });
    }
  });
});

describe("concepts behind the third-set fixes (synthetic bodies pinning the rules)", () => {
  it("reads an exception type written in PascalCase as the words it names", () => {
    expect(classifyProviderError({ body: "ModelNotReadyException: try later" })).toEqual({
      code: "overloaded",
      retryable: true,
    });
    expect(classifyProviderError({ body: "litellm.ContextWindowExceededError: upstream said no" }).code).toBe(
      "context_overflow",
    );
  });

  it("takes the status from the title of a proxy's HTML error page", () => {
    const body = "<html><head><title>example.com | 522</title></head><body>origin unreachable</body></html>";
    expect(classifyProviderError({ body })).toEqual({ code: "server", retryable: true });
  });

  it("treats a size cap counted in tokens as the window, and one counted in bytes as a bad request", () => {
    const tokens = "Request body too large for some-model. Max size: 4000 tokens.";
    const bytes = "Request body too large. Max size: 4000000 bytes.";
    expect(classifyProviderError({ status: 413, body: tokens }).code).toBe("context_overflow");
    expect(classifyProviderError({ status: 413, body: bytes }).code).toBe("invalid_request");
  });

  it("does not mistake an answer that ran past its output maximum for an overflow", () => {
    const body = "The response exceeded the 8000 output token maximum.";
    expect(classifyProviderError({ body })).toEqual({ code: "invalid_request", retryable: false });
  });

  it("does not read a size limit of an input image as the context window", () => {
    const body = "The maximum size of the input image is 20 MB.";
    expect(classifyProviderError({ status: 400, body }).code).toBe("invalid_request");
  });
});

describe("provider is only a hint on the third set", () => {
  it("gives the same verdict with and without the provider name", () => {
    for (const entry of entries) {
      const status = entry.status === null ? {} : { status: entry.status };
      const withProvider = classifyProviderError({ ...status, body: entry.body, provider: "someone-else" });
      expect(withProvider).toEqual(classify(entry));
    }
  });
});
