import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { classifyProviderError, overflowInputTokens } from "../../src/providers/classify-provider-error.js";

/**
 * Issue 22 item 4: spending, credit, quota, plan and per-key limits are never context overflows,
 * however they are worded, token counts and "limit exceeded" included; compaction cannot fix them.
 * The rule is general (who or when the limit belongs to, where it is raised), not one body.
 */
const owner = fc.constantFrom(
  "key",
  "API key",
  "monthly",
  "daily",
  "weekly",
  "plan",
  "usage",
  "spend",
  "budget",
  "team",
  "user",
  "organization",
  "account",
);
const what = fc.constantFrom("prompt tokens", "tokens", "input tokens", "token", "requests");
const verb = fc.constantFrom("limit exceeded", "limit reached", "cap exceeded", "quota exceeded");
const advice = fc.constantFrom(
  "Raise the monthly limit in this key's settings.",
  "Manage it using https://openrouter.ai/settings/keys",
  "Increase your spending limit in the dashboard.",
  "Contact your administrator to raise the budget.",
  "",
);
const count = fc.integer({ min: 1000, max: 50_000_000 });
const status = fc.constantFrom(400, 402, 403, 429, undefined);

describe("spending and per-key limits (issue 22)", () => {
  it("are never overflows, whatever the phrasing, numbers and status", () => {
    fc.assert(
      fc.property(
        owner,
        what,
        verb,
        advice,
        count,
        count,
        status,
        (who, unit, limit, hint, used, max, code) => {
          const message = `${who} ${unit} ${limit}: ${used} > ${max}. ${hint}`.trim();
          const body = JSON.stringify({ error: { message, type: "invalid_request_error" } });
          const verdict = classifyProviderError(code === undefined ? { body } : { status: code, body });
          expect(verdict.code).not.toBe("context_overflow");
          expect(verdict.requestTokens).toBeUndefined();
        },
      ),
      { numRuns: 300 },
    );
  });

  it("the key guardrail of the report is a spending limit, and the same numbers as an overflow still are one", () => {
    const guardrail = JSON.stringify({
      error: {
        message:
          "prompt tokens limit exceeded: 2052134 > 2000000. This API key's monthly limit is reached; raise it in the key's settings.",
      },
    });
    expect(classifyProviderError({ status: 400, body: guardrail })).toEqual({
      code: "other",
      retryable: false,
    });
    expect(classifyProviderError({ status: 429, body: guardrail })).toEqual({
      code: "rate_limit",
      retryable: false,
    });
    const overflow = JSON.stringify({
      error: { message: "prompt is too long: 2052134 tokens > 2000000 maximum" },
    });
    expect(classifyProviderError({ status: 400, body: overflow })).toEqual({
      code: "context_overflow",
      retryable: false,
      requestTokens: 2052134,
      contextWindow: 2000000,
    });
  });
});

describe("the stated input apart from reserved output", () => {
  it("reads the messages' part of a stated total, and no input from a total alone", () => {
    const split =
      "This model's maximum context length is 8192 tokens. However, you requested 8256 tokens (64 in the messages, 8192 in the completion). Please reduce the length of the messages or completion.";
    expect(overflowInputTokens({ status: 400, body: split })).toBe(64);
    expect(classifyProviderError({ status: 400, body: split }).requestTokens).toBe(8256);
    const total = "Cohere: total number of tokens (prompt and prediction) cannot exceed 2048 - received 6354";
    expect(overflowInputTokens({ status: 400, body: total })).toBeUndefined();
    expect(
      overflowInputTokens({ status: 400, body: "prompt is too long: 219898 tokens > 200000 maximum" }),
    ).toBe(219898);
  });
});
