import { describe, expect, it } from "vitest";
import { classifyProviderError } from "../../src/providers/classify-provider-error.js";
import {
  classify,
  HELD_OUT_FIXTURE,
  label,
  readFixture,
  SHARED_FIXTURE,
  THIRD_FIXTURE,
} from "../support/provider-error-fixtures.js";

/**
 * The request size and context window each fixture body states, by 1-based line, read off the bodies
 * by hand: [requestTokens, contextWindow]. A body not listed states no numbers whose role is certain
 * (or is no overflow), and must come back without any.
 */
const EXPECTED: Record<
  "SHARED" | "HELD_OUT" | "THIRD",
  Record<number, [number | undefined, number | undefined]>
> = {
  SHARED: {
    1: [219898, 200000],
    2: [178959, 200000],
    8: [903884, 200000],
    14: [undefined, 8192],
    15: [4294, 4097],
    16: [8256, 8192],
    23: [10383, 8192],
    25: [132478, 131072],
    26: [1200293, 1048576],
    27: [81881, 65536],
    29: [159202, 131072],
    33: [42328, 40000],
    35: [136973, 131072],
    37: [194606, 131072],
    38: [42832, 32768],
    39: [263390, 262000],
    40: [undefined, 129024],
    42: [2019, 2048],
    45: [8708, 8192],
    47: [33430, 32768],
    48: [1492905, 1048576],
    49: [19591, 16384],
    52: [13055, 4096],
    53: [111490, 32768],
    55: [138898, 64000],
    57: [269030, 262144],
    61: [undefined, 129024],
    65: [3474, 2048],
    66: [1872, 1024],
  },
  HELD_OUT: {
    1: [6354, 2048],
    12: [131073, 131072],
    13: [262145, 262144],
    15: [256878, 256000],
    16: [2662, 512],
    17: [8238, 8191],
    18: [2501, 2048],
    19: [203743, 202752],
    20: [undefined, 30720],
    21: [undefined, 6000],
    35: [174167, 200000],
    39: [66501, 65536],
    40: [undefined, 1048576],
  },
  THIRD: {
    1: [14429, 8192],
    2: [1407, 256],
    3: [509178, 272000],
    4: [undefined, 272000],
    6: [203052, 200000],
    7: [61709, 40960],
    8: [160062, 59862],
    9: [8213, 8192],
    10: [17165, 16000],
    11: [80125, 4097],
    12: [4545, 4096],
    13: [undefined, 983616],
    14: [142251, 200000],
    15: [196395, 204698],
    16: [149674, 204658],
    17: [9279, 8192],
    18: [undefined, 8000],
    19: [undefined, 8192],
    21: [39732, 32768],
    22: [2285, 2048],
    24: [40177, 32767],
    25: [6491, 1500],
    26: [undefined, 4096],
    27: [5056, 2048],
    62: [375008, undefined],
  },
};

const FILES = { SHARED: SHARED_FIXTURE, HELD_OUT: HELD_OUT_FIXTURE, THIRD: THIRD_FIXTURE } as const;

describe("numbers read from every fixture body", () => {
  for (const [name, url] of Object.entries(FILES) as [keyof typeof FILES, URL][]) {
    readFixture(url).forEach((entry, index) => {
      const expected = EXPECTED[name][index + 1];
      const title = expected === undefined ? "states no numbers" : `states ${expected[0]} > ${expected[1]}`;
      it(`${name} ${label(entry, index)} ${title}`, () => {
        const result = classify(entry);
        expect(result.requestTokens).toBe(expected?.[0]);
        expect(result.contextWindow).toBe(expected?.[1]);
        if (expected !== undefined) expect(result.code).toBe("context_overflow");
      });
    });
  }
});

describe("numbers in overflow phrasings beyond the fixtures", () => {
  const cases: [string, string, number | undefined, number | undefined][] = [
    [
      "Ollama",
      '{"error":"prompt has 5000 tokens, but the configured context size is 4096 tokens"}',
      5000,
      4096,
    ],
    [
      "llama.cpp fields only",
      '{"error":{"code":400,"type":"exceed_context_size_error","message":"the request exceeds the available context size","n_ctx":2048,"n_prompt_tokens":3100}}',
      3100,
      2048,
    ],
    [
      "Anthropic with thousands separators",
      '{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 1,204,311 tokens > 1,000,000 maximum"}}',
      1204311,
      1000000,
    ],
    [
      "vLLM",
      "This model's maximum context length is 32768 tokens. However, you requested 40100 tokens in the messages, Please reduce the length of the messages.",
      40100,
      32768,
    ],
    [
      "Gemini",
      '{"error":{"code":400,"message":"The input token count (2000001) exceeds the maximum number of tokens allowed (1048576).","status":"INVALID_ARGUMENT"}}',
      2000001,
      1048576,
    ],
    ["vLLM input prompt", "Input prompt (9000 tokens) is too long and exceeds limit of 8192", 9000, 8192],
    [
      "vLLM max model length",
      "The decoder prompt (length 70000) is longer than the maximum model length of 65536.",
      70000,
      65536,
    ],
  ];
  for (const [name, body, requestTokens, contextWindow] of cases) {
    it(`reads ${requestTokens} and ${contextWindow} from ${name}`, () => {
      const result = classifyProviderError({ status: 400, body });
      expect(result).toEqual({ code: "context_overflow", retryable: false, requestTokens, contextWindow });
    });
  }
});

describe("token counts in errors that are not overflows", () => {
  const cases: [string, number, string][] = [
    [
      "a spending cap",
      402,
      '{"error":{"message":"This request requires more credits, or fewer max_tokens. You requested up to 64000 tokens, but can only afford 12000.","code":402}}',
    ],
    [
      "a per-minute limit",
      429,
      "Rate limit reached on tokens per min (TPM): Limit 30000, Used 29937, Requested 40000 tokens > 30000 maximum.",
    ],
    ["an output cap", 400, "max_tokens: 10000 > 4096, which is the maximum allowed number of output tokens"],
  ];
  for (const [name, status, body] of cases) {
    it(`gives no numbers for ${name}`, () => {
      const result = classifyProviderError({ status, body });
      expect(result.code).not.toBe("context_overflow");
      expect(result.requestTokens).toBeUndefined();
      expect(result.contextWindow).toBeUndefined();
    });
  }
});
