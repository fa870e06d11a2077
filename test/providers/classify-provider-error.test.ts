import { describe, expect, it } from "vitest";
import { ERROR_CODES, type ErrorClassification } from "../../src/core/index.js";
import { classifyProviderError } from "../../src/providers/classify-provider-error.js";
import {
  classify,
  type FixtureEntry,
  HELD_OUT_FIXTURE,
  label,
  readFixture,
  SHARED_FIXTURE,
} from "../support/provider-error-fixtures.js";

const shared = readFixture(SHARED_FIXTURE);
const heldOut = readFixture(HELD_OUT_FIXTURE);

function describeOverflowVerdicts(name: string, entries: FixtureEntry[]): void {
  describe(`overflow verdicts on the ${name}`, () => {
    entries.forEach((entry, index) => {
      if (entry.scored === false) {
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
}

describeOverflowVerdicts("shared fixture", shared);
describeOverflowVerdicts("held-out fixture", heldOut);

describe("full codes on the held-out fixture", () => {
  heldOut.forEach((entry, index) => {
    if (entry.expected_code === undefined) return;
    it(`classifies ${label(entry, index)} as ${entry.expected_code}`, () => {
      expect(classify(entry).code).toBe(entry.expected_code);
    });
  });
});

describe("full codes on the shared fixture", () => {
  const byNote = (fragment: string): FixtureEntry => {
    const entry = shared.find(
      (candidate) => candidate.note.includes(fragment) || candidate.body.includes(fragment),
    );
    if (entry === undefined) throw new Error(`no shared fixture entry mentions ${fragment}`);
    return entry;
  };
  const cases: Array<[string, ErrorClassification]> = [
    ["input-tokens-per-minute rate limit", { code: "rate_limit", retryable: true }],
    ["ThrottlingException", { code: "rate_limit", retryable: true }],
    ["Ordinary TPM rate limit", { code: "rate_limit", retryable: true }],
    ["429 rate limit (mistralai", { code: "rate_limit", retryable: true }],
    // One request bigger than the whole per-minute budget never passes, so it is not retried.
    ["Requested 30601", { code: "rate_limit", retryable: false }],
    ["Requested 208334", { code: "rate_limit", retryable: false }],
    ["Model still loading", { code: "overloaded", retryable: true }],
    ["413 request_too_large", { code: "invalid_request", retryable: false }],
    ["proxy 413", { code: "invalid_request", retryable: false }],
    ["maximum allowed number of output tokens", { code: "invalid_request", retryable: false }],
    ["maximum tokens you requested exceeds", { code: "invalid_request", retryable: false }],
    ["is too large: 64000", { code: "invalid_request", retryable: false }],
    ["Range of max_tokens", { code: "invalid_request", retryable: false }],
    ["Output-limit validation", { code: "invalid_request", retryable: false }],
    ["Content filter", { code: "invalid_request", retryable: false }],
    ["Model name mismatch", { code: "invalid_request", retryable: false }],
    ["402 credit check", { code: "other", retryable: false }],
    ["Quota error relayed by Copilot", { code: "other", retryable: false }],
    [
      "prompt is too long: 219898",
      { code: "context_overflow", retryable: false, requestTokens: 219898, contextWindow: 200000 },
    ],
  ];
  for (const [fragment, expected] of cases) {
    it(`classifies the entry "${fragment}" as ${expected.code} (retryable: ${expected.retryable})`, () => {
      expect(classify(byNote(fragment))).toEqual(expected);
    });
  }
});

describe("classification by status when the body says nothing", () => {
  const cases: Array<[number | undefined, string, ErrorClassification]> = [
    [401, "", { code: "auth", retryable: false }],
    [403, "Forbidden", { code: "auth", retryable: false }],
    [408, "", { code: "network", retryable: true }],
    [429, "", { code: "rate_limit", retryable: true }],
    [500, "", { code: "server", retryable: true }],
    [502, "<html>Bad Gateway</html>", { code: "server", retryable: true }],
    [503, "", { code: "server", retryable: true }],
    [504, "", { code: "server", retryable: true }],
    [529, "", { code: "overloaded", retryable: true }],
    [404, "", { code: "invalid_request", retryable: false }],
    [422, "", { code: "invalid_request", retryable: false }],
    [undefined, "", { code: "other", retryable: false }],
    [undefined, "something odd happened", { code: "other", retryable: false }],
  ];
  for (const [status, body, expected] of cases) {
    it(`maps status ${status ?? "none"} with body ${JSON.stringify(body)} to ${expected.code}`, () => {
      const failure = status === undefined ? { body } : { status, body };
      expect(classifyProviderError(failure)).toEqual(expected);
    });
  }
});

describe("classification of bodies without a status", () => {
  it("reads a status the body states itself (SDK prefix)", () => {
    expect(classifyProviderError({ body: "429 status code (no body)" })).toEqual({
      code: "rate_limit",
      retryable: true,
    });
  });

  it("treats connection-level failures as retryable network errors", () => {
    for (const body of ["socket hang up", "read ECONNRESET", "stream disconnected before completion"]) {
      expect(classifyProviderError({ body })).toEqual({ code: "network", retryable: true });
    }
  });

  it("treats a Responses failure event with server_error as a retryable server error", () => {
    const body = JSON.stringify({
      type: "response.failed",
      response: { status: "failed", error: { code: "server_error", message: "The server had an error." } },
    });
    expect(classifyProviderError({ body })).toEqual({ code: "server", retryable: true });
  });

  it("recognises an overflow carried in a Responses failure event", () => {
    const body = JSON.stringify({
      type: "response.failed",
      response: {
        status: "failed",
        error: {
          code: "context_length_exceeded",
          message: "Your input exceeds the context window of this model.",
        },
      },
    });
    expect(classifyProviderError({ body }).code).toBe("context_overflow");
  });

  it("recognises an overflow in an SSE error line", () => {
    const body =
      'event: error\ndata: {"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 210000 tokens > 200000 maximum"}}';
    expect(classifyProviderError({ body }).code).toBe("context_overflow");
  });
});

describe("quota and billing", () => {
  it("does not retry an exhausted OpenAI quota", () => {
    const body =
      '{"error":{"message":"You exceeded your current quota, please check your plan and billing details.","type":"insufficient_quota","param":null,"code":"insufficient_quota"}}';
    expect(classifyProviderError({ status: 429, body })).toEqual({ code: "rate_limit", retryable: false });
  });

  it("retries a per-minute quota that tells when to come back", () => {
    const body =
      "You exceeded your current quota, please check your plan and billing details. Quota exceeded for metric: generate_content_free_tier_requests, limit: 10. Please retry in 43.6s.";
    expect(classifyProviderError({ status: 429, body })).toEqual({ code: "rate_limit", retryable: true });
  });
});

describe("completed responses handed over as failures", () => {
  it("does not call an output cut off by max_tokens an overflow, whatever the generated text says", () => {
    const body = JSON.stringify({
      choices: [
        { message: { content: "context_length_exceeded: prompt is too long" }, finish_reason: "length" },
      ],
    });
    expect(classifyProviderError({ status: 200, body })).toEqual({ code: "other", retryable: false });
  });

  it("reads an Anthropic stop_reason model_context_window_exceeded as an overflow", () => {
    const body = JSON.stringify({
      type: "message",
      content: [],
      stop_reason: "model_context_window_exceeded",
    });
    expect(classifyProviderError({ status: 200, body }).code).toBe("context_overflow");
  });
});

describe("words that look like overflow but are not (synthetic bodies pinning the rules)", () => {
  it("does not read a request to shrink an image as an overflow", () => {
    expect(classifyProviderError({ status: 400, body: "Please reduce your input image size" }).code).toBe(
      "invalid_request",
    );
  });

  it("lets overflow words beat a 5xx status, and does not retry them", () => {
    const body =
      '{"detail":"The decoder prompt (length 9000) is longer than the maximum model length of 8192."}';
    expect(classifyProviderError({ status: 500, body })).toEqual({
      code: "context_overflow",
      retryable: false,
      requestTokens: 9000,
      contextWindow: 8192,
    });
  });

  it("keeps a rate limit that mentions the context window a rate limit", () => {
    const body =
      "Rate limit reached on tokens per min (TPM): the request would exceed the context window budget";
    expect(classifyProviderError({ status: 429, body }).code).toBe("rate_limit");
  });
});

describe("provider is only a hint", () => {
  it("gives the same verdict with and without the provider name", () => {
    for (const entry of [...shared, ...heldOut]) {
      const status = entry.status === null ? {} : { status: entry.status };
      const withProvider = classifyProviderError({ ...status, body: entry.body, provider: "someone-else" });
      expect(withProvider).toEqual(classify(entry));
    }
  });
});
