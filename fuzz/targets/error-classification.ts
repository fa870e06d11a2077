import { isDeepStrictEqual } from "node:util";
import { ERROR_CODES } from "../../src/core/index.js";
import { classifyProviderError } from "../../src/providers/classify-provider-error.js";
import { normaliseErrorText, readErrorBody } from "../../src/providers/read-error-body.js";
import { readOverflowNumbers } from "../../src/providers/read-overflow-numbers.js";
import { readableErrorMessage } from "../../src/providers/readable-error-message.js";
import { type FuzzTarget, invariant } from "../engine/fuzz-target.js";
import { CONTROL_CHARACTER } from "../support/terminal-safety.js";

/**
 * Error-body reading, overflow classification and its number reading, and the readable message
 * shown to people. The input's first line is `STATUS PROVIDER` (`-` for no status), the rest the
 * body. Invariants: nothing throws; the code is one of the closed set and `retryable` a boolean;
 * token figures come only with an overflow, as positive safe integers; the same failure classifies
 * the same way twice (no regex state left behind); the readable message is one line of at most
 * 401 characters with no control character; every body finishes well within the time limit (no
 * catastrophic backtracking on long bodies).
 */
export const target: FuzzTarget = {
  description:
    "STATUS PROVIDER + body -> classifyProviderError, readErrorBody, readOverflowNumbers, readableErrorMessage",
  dictionary: [
    "context_length_exceeded",
    "prompt is too long",
    "tokens",
    "maximum context length",
    "rate limit",
    "tokens per minute",
    "max_tokens",
    "413",
    "429",
    "529",
    '"error":',
    '"message":',
    '"code":',
    '"finish_reason":"length"',
    "n_ctx",
    "n_prompt_tokens",
    "1,048,576",
    "> ",
    "exceeds",
    "input length",
    "ThrottlingException",
    "<html>",
    "data: ",
    "\\n",
    '\\"',
    "{'error': {'message': '",
  ],
  maxLength: 32_768,
  timeoutMs: 1500,
  run(input) {
    const text = input.toString("utf8");
    const newline = text.indexOf("\n");
    const head = newline === -1 ? "" : text.slice(0, newline);
    const body = newline === -1 ? text : text.slice(newline + 1);
    const [statusText, provider] = head.split(" ");
    const status = statusText === undefined || statusText === "-" ? null : Number(statusText);
    const failure = { status, body, ...(provider === undefined || provider === "" ? {} : { provider }) };
    const verdict = classifyProviderError(failure);
    invariant((ERROR_CODES as readonly string[]).includes(verdict.code), `code ${verdict.code}`);
    invariant(typeof verdict.retryable === "boolean", "retryable is not a boolean");
    for (const key of ["requestTokens", "contextWindow"] as const) {
      const value = verdict[key];
      if (value === undefined) continue;
      invariant(verdict.code === "context_overflow", `${key} on a ${verdict.code} verdict`);
      invariant(Number.isSafeInteger(value) && value > 0, `${key} ${value}`);
    }
    invariant(isDeepStrictEqual(classifyProviderError(failure), verdict), "a second classification differs");
    const numbers = readOverflowNumbers(readErrorBody(body).text);
    invariant(
      isDeepStrictEqual(readOverflowNumbers(readErrorBody(body).text), numbers),
      "number reading is not repeatable",
    );
    const normalised = normaliseErrorText(body);
    invariant(normaliseErrorText(body) === normalised, "normalising is not repeatable");
    const readable = readableErrorMessage(body);
    invariant(readable !== "" && readable.length <= 401, `readable message of ${readable.length} characters`);
    invariant(
      !CONTROL_CHARACTER.test(readable),
      `control character in the readable message ${JSON.stringify(readable.slice(0, 200))}`,
    );
  },
};
