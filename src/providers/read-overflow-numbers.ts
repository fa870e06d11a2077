/**
 * The sizes an overflow error states: how large the rejected request was and how large the window
 * is, in tokens. Read only from phrasings whose roles are unmistakable ("N tokens > M maximum",
 * "maximum context length is M tokens. However, you requested N tokens"); a number whose role or
 * unit is unclear is left out rather than guessed.
 */
export interface OverflowNumbers {
  /**
   * The request's size as the provider stated it: its total when the body states one (which may
   * include the output tokens it reserved), else the input's size.
   */
  requestTokens?: number;
  /** The model's context window (or maximum input) in tokens. */
  contextWindow?: number;
  /**
   * The rejected request's input alone (what compaction can shrink, and what a retry re-sends), when
   * the body states it apart from any output reservation: a size the body gives as the prompt's or
   * the input's, or the messages' part of a stated total ("130000 tokens (120000 in the messages,
   * 10000 in the completion)"). Absent when the only size stated may include reserved output.
   */
  inputTokens?: number;
}

/** A number as providers write it: "219898", "20,000". */
const N = String.raw`(\d{1,3}(?:,\d{3})+|\d+)`;

interface NumberRule {
  pattern: RegExp;
  /** Capture group of the request size, of the window; 0 when the rule does not give that one. */
  request: number;
  window: number;
  /**
   * Whether the request size counts the input alone: "input" always, "total" never (the phrasing
   * may include reserved output), or decided by the words matched.
   */
  input: "input" | "total" | ((matched: string) => boolean);
}

const rule = (
  source: string,
  request: number,
  window: number,
  input: NumberRule["input"] = "input",
): NumberRule => ({ pattern: new RegExp(source), request, window, input });

/** OpenAI's "you requested N tokens" and its kin may count the completion's reservation too. */
const inputUnlessRequested = (matched: string): boolean =>
  !/\b(?:you requested|request contains|will take)\b/.test(matched);

/**
 * Run on text normalised by `normaliseErrorText` (lowercase; quotes, underscores and hyphens turned
 * into spaces). The first rule that gives a number wins that number; rules that name both come first.
 */
const RULES: readonly NumberRule[] = [
  // Anthropic: "prompt is too long: 219898 tokens > 200000 maximum"
  rule(String.raw`\b${N} tokens? > ${N} maximum\b`, 1, 2),
  // Anthropic: "input length and max tokens exceed context limit: 178959 + 64000 > 200000"
  rule(String.raw`\bexceed context limit: ${N} ?\+? ?${N} ?> ?${N}\b`, 1, 3),
  // Cloudflare: "... for a total of at least 131073 tokens" after "maximum context length is M tokens"
  rule(
    String.raw`\bmax(?:imum)? context length is ${N} tokens?\b.{0,160}?\bfor a total of (?:at least )?${N} tokens\b`,
    2,
    1,
    "total",
  ),
  // OpenAI, vLLM, DeepSeek, OpenRouter, SambaNova: "maximum context length is M tokens. However, you
  // requested [about] N tokens", "... your messages resulted in N tokens", "... will take N tokens"
  rule(
    String.raw`\bmax(?:imum)? (?:context|prompt) length (?:of (?:[\w.:/]+ ){1,6}?)?is ${N}(?: tokens?)?\b[.,]? (?:however,? |but )?(?:you requested|your messages? resulted in|the request contains|answering your request will take|your prompt contains) (?:about |at least )?${N} tokens\b`,
    2,
    1,
    inputUnlessRequested,
  ),
  // Cloudflare: "maximum context length of 256000 tokens. You requested a total of 256878 tokens"
  rule(
    String.raw`\bmax(?:imum)? context length of ${N} tokens?\b.{0,40}?\byou requested a total of ${N} tokens\b`,
    2,
    1,
    "total",
  ),
  // llama.cpp: "request (8708 tokens) exceeds the available context size (8192 tokens)"
  rule(String.raw`\brequest \(${N} tokens?\) exceeds the available context size \(${N} tokens?\)`, 1, 2),
  // llama.cpp JSON fields: "n_prompt_tokens":8708, "n_ctx":8192 (either order)
  rule(String.raw`\bn prompt tokens ?: ?${N}\b.{0,80}?\bn ctx ?: ?${N}\b`, 1, 2),
  rule(String.raw`\bn ctx ?: ?${N}\b.{0,80}?\bn prompt tokens ?: ?${N}\b`, 2, 1),
  // LM Studio: "(n_keep: 13055>= n_ctx: 4096)"
  rule(String.raw`\bn keep ?: ?${N} ?>=? ?n ctx ?: ?${N}\b`, 1, 2),
  // Gemini: "The input token count (132478) exceeds the maximum number of tokens allowed (131072)"
  rule(
    String.raw`\binput token count \(?${N}\)? exceeds the maximum number of tokens allowed \(?${N}\)?`,
    1,
    2,
  ),
  // "prompt has 5000 tokens, but the [configured] context size is 4096 [tokens]"
  rule(
    String.raw`\b(?:prompt|input|request) (?:has|contains) ${N} tokens\b.{0,40}?\bcontext (?:size|length|window) (?:is|of) ${N}\b`,
    1,
    2,
  ),
  // Mistral: "Prompt contains 159202 tokens and 0 draft tokens, too large for model with 131072 maximum context length"
  rule(
    String.raw`\bprompt contains ${N} tokens\b.{0,60}?\btoo large for model with ${N} max(?:imum)? context length\b`,
    1,
    2,
  ),
  // vLLM: "Input prompt (2501 tokens) is too long and exceeds limit of 2048"
  rule(String.raw`\binput prompt \(${N} tokens?\) is too long and exceeds limit of ${N}\b`, 1, 2),
  // vLLM, SGLang: "The input (61709 tokens) is longer than the model s context length (40960 tokens)";
  // "Input length (160062 tokens) exceeds the maximum allowed length (59862 tokens)"
  rule(
    String.raw`\b(?:input|prompt)(?: length)? \(${N} tokens?\) (?:is longer than|exceeds) the (?:model s |maximum allowed )?(?:context )?length \(${N} tokens?\)`,
    1,
    2,
  ),
  // vLLM: "The decoder prompt (length 66501) is longer than the maximum model length of 65536"
  rule(String.raw`\bprompt \(length ${N}\) is longer than the maximum model length of ${N}\b`, 1, 2),
  // GitHub Copilot: "prompt token count of 138898 exceeds the limit of 64000"
  rule(String.raw`\bprompt token count of ${N} exceeds the limit of ${N}\b`, 1, 2),
  // Moonshot: "exceeded model token limit: 262144 (requested: 269030)"
  rule(String.raw`\bmodel token limit: ${N} \(requested: ${N}\)`, 2, 1, "total"),
  // LiteLLM: "Input tokens exceed the configured limit of 272000 tokens. Your messages resulted in 509178 tokens"
  rule(
    String.raw`\binput tokens exceed the configured limit of ${N} tokens\b.{0,10}?\byour messages resulted in ${N} tokens\b`,
    2,
    1,
  ),
  // Together / TGI: "inputs tokens + max new tokens must be <= 4097. Given: 80125 inputs tokens and ..."
  rule(
    String.raw`\binputs tokens \+ max new tokens must be <= ${N}\b.{0,20}?\bgiven: ${N} inputs tokens\b`,
    2,
    1,
  ),
  // TGI: "inputs must have less than 4096 tokens. Given: 4545"
  rule(String.raw`\binputs must have less than ${N} tokens\b.{0,10}?\bgiven: ${N}\b`, 2, 1),
  // Amazon Titan: "Max input tokens: 8192, request input token count: 9279"
  rule(String.raw`\bmax input tokens: ${N}, request input token count: ${N}\b`, 2, 1),
  // llama-cpp-python: "Requested tokens (2285) exceed context window of 2048"
  rule(String.raw`\brequested tokens \(${N}\) exceed context window of ${N}\b`, 1, 2),
  // ctransformers: "Number of tokens (2662) exceeded maximum context length (512)"
  rule(String.raw`\bnumber of tokens \(${N}\) exceeded maximum context length \(${N}\)`, 1, 2),
  // Cohere: "total number of tokens (prompt and prediction) cannot exceed 2048 - received 6354"
  rule(
    String.raw`\btotal number of tokens \(prompt and prediction\) cannot exceed ${N} received ${N}\b`,
    2,
    1,
    "total",
  ),
  // Fireworks: "The prompt is too long: 40177, model maximum context length: 32767"
  rule(String.raw`\bprompt is too long: ${N}, model maximum context length: ${N}\b`, 1, 2),
  // TensorRT-LLM: "Prompt length (5056) exceeds maximum sequence length (2048)"
  rule(String.raw`\bprompt length \(${N}\) exceeds maximum sequence length \(${N}\)`, 1, 2),
  // LM Studio: "Input length 6491 exceeds context length 1500"; Volcano Ark: "Input length 203743
  // exceeds the maximum length 202752"
  rule(String.raw`\binput length ${N} exceeds (?:the )?(?:context|maximum) length ${N}\b`, 1, 2),
  // Cerebras: "Current length is 42328 while limit is 40000"
  rule(String.raw`\bcurrent length is ${N} while limit is ${N}\b`, 1, 2, "total"),
  // OpenAI embeddings: "Requested 319487 tokens, max 300000 tokens per request"
  rule(String.raw`\brequested ${N} tokens, max ${N} tokens per request\b`, 1, 2),
  // LM Studio: "Trying to keep the first 111490 tokens ... loaded with context length of only 32768 tokens"
  rule(String.raw`\bkeep the first ${N} tokens\b.{0,120}?\bcontext length of (?:only )?${N} tokens\b`, 1, 2),
  // Only the request's size is stated.
  rule(String.raw`\bprompt \(length ${N}\) is longer than\b`, 1, 0),
  // Only the window is stated: "maximum context length is 8192 tokens", "exceeds the maximum number
  // of tokens allowed 1048576", "configured limit of 272000 tokens", "max length:8192",
  // "Max size: 8000 tokens", "Reached context length of 4096 tokens", "Range of input length should be [1, 30720]"
  rule(String.raw`\bmax(?:imum)? (?:context|prompt) length (?:of (?:[\w.:/]+ ){1,6}?)?is ${N}\b`, 0, 1),
  rule(String.raw`\bmax(?:imum)? context length of ${N} tokens\b`, 0, 1),
  rule(String.raw`\bexceeds the maximum number of tokens allowed \(?${N}\b`, 0, 1),
  rule(String.raw`\binput tokens exceed the configured limit of ${N} tokens\b`, 0, 1),
  rule(String.raw`\bmodel max length exceeded, max length: ?${N}\b`, 0, 1),
  rule(String.raw`\btoo large for (?:[\w.:/]+ ){0,3}model\. max size: ${N} tokens\b`, 0, 1),
  rule(String.raw`\breached context length of ${N} tokens\b`, 0, 1),
  rule(String.raw`\brange of input length should be \[1, ?${N}\]`, 0, 1),
];

/**
 * A stated total broken down into its parts: "(120000 in the messages, 10000 in the completion)",
 * "(3000 in your prompt; 1000 for the completion)".
 */
const INPUT_PART = new RegExp(
  String.raw`\b${N} tokens? \(${N} in (?:the |your )?(?:messages?|prompt)[,;] ${N} (?:in|for) the completion\)`,
);

/** The stated request size and window of an overflow body, given its normalised text. */
export function readOverflowNumbers(text: string): OverflowNumbers {
  const found: OverflowNumbers = {};
  let inputStated = false;
  for (const { pattern, request, window, input } of RULES) {
    const match = pattern.exec(text);
    if (match === null) continue;
    const requestTokens = request === 0 ? undefined : toNumber(match[request]);
    const contextWindow = window === 0 ? undefined : toNumber(match[window]);
    if (found.requestTokens === undefined && requestTokens !== undefined) {
      found.requestTokens = requestTokens;
      inputStated = input === "input" || (typeof input === "function" && input(match[0]));
    }
    if (found.contextWindow === undefined && contextWindow !== undefined) found.contextWindow = contextWindow;
    if (found.requestTokens !== undefined && found.contextWindow !== undefined) break;
  }
  const parts = INPUT_PART.exec(text);
  const inputPart = toNumber(parts?.[2]);
  if (inputPart !== undefined && toNumber(parts?.[1]) === found.requestTokens) found.inputTokens = inputPart;
  else if (inputStated && found.requestTokens !== undefined) found.inputTokens = found.requestTokens;
  return found;
}

function toNumber(digits: string | undefined): number | undefined {
  if (digits === undefined) return undefined;
  const value = Number(digits.replace(/,/g, ""));
  return Number.isSafeInteger(value) && value > 0 ? value : undefined;
}
