import fc from "fast-check";
import type {
  AssistantMessage,
  ImageBlock,
  Message,
  TextBlock,
  ThinkingBlock,
  ToolResultMessage,
  Usage,
  UserMessage,
} from "../../src/core/index.js";

/**
 * Loosely shaped messages for comparing a fast implementation with a plain reference: every block
 * kind, text that holds turn markers, envelope tags, digits, CJK and lone surrogates, assistant
 * messages with and without usage (some of it nonsense), from two models. Unlike
 * conversation-arbitrary.ts, nothing here is coherent on purpose.
 */
const fragment = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.string({ unit: "binary", maxLength: 10 }),
  fc.constantFrom(
    "[User]: ",
    "\n[Assistant]: x",
    "</transcript>",
    "&lt;previous-summary>",
    " 42\n",
    "camelCaseName",
    "我可以",
    "\ud83d",
    "😀",
    '{"a":1}',
  ),
);

export const messageText = fc.array(fragment, { maxLength: 8 }).map((parts) => parts.join(""));

const image: fc.Arbitrary<ImageBlock> = fc
  .constantFrom("image/png", "image/jpeg")
  .map((mediaType) => ({ type: "image", mediaType, data: "AAAA" }));
const text: fc.Arbitrary<TextBlock> = messageText.map((value) => ({ type: "text", text: value }));
const parts = fc.array(fc.oneof({ weight: 4, arbitrary: text }, { weight: 1, arbitrary: image }), {
  maxLength: 3,
});

const userMessage: fc.Arbitrary<UserMessage> = parts.map((content) => ({ role: "user", content }));

const usage: fc.Arbitrary<Usage | undefined> = fc.option(
  fc.record({
    promptTokens: fc.oneof(fc.integer({ min: 0, max: 5_000 }), fc.constant(-1), fc.constant(Number.NaN)),
    outputTokens: fc.integer({ min: 0, max: 400 }),
    resentOutputTokens: fc.oneof(fc.integer({ min: 0, max: 400 }), fc.constant(-3)),
  }),
  { nil: undefined, freq: 4 },
);

const assistantBlock = fc.oneof(
  text,
  fc
    .record({ text: fc.oneof(messageText, fc.constant(" ")), redacted: fc.boolean() })
    .map(
      ({ text: value, redacted }): ThinkingBlock =>
        redacted ? { type: "thinking", text: value, redacted: "opaque" } : { type: "thinking", text: value },
    ),
  fc.record({
    type: fc.constant("tool-call" as const),
    id: fc.constant("call"),
    name: fc.constantFrom("bash", "read_file", "[User]:"),
    arguments: fc.dictionary(fc.string({ maxLength: 5 }), fc.oneof(messageText, fc.integer())),
  }),
);

const assistantMessage: fc.Arbitrary<AssistantMessage> = fc
  .record({
    content: fc.array(assistantBlock, { maxLength: 4 }),
    model: fc.constantFrom("model-a", "model-b"),
    usage,
    stopReason: fc.constantFrom("stop", "tool-use", "error", "aborted", "length") as fc.Arbitrary<
      AssistantMessage["stopReason"]
    >,
  })
  .map(({ usage: reported, ...rest }) => ({
    role: "assistant",
    provider: "anthropic",
    api: "anthropic-messages",
    ...rest,
    ...(reported === undefined ? {} : { usage: reported }),
  }));

const toolMessage: fc.Arbitrary<ToolResultMessage> = fc
  .array(
    fc.record({
      type: fc.constant("tool-result" as const),
      toolCallId: fc.constant("call"),
      toolName: fc.constantFrom("bash", "</transcript>"),
      content: parts,
      isError: fc.boolean(),
    }),
    { maxLength: 3 },
  )
  .map((content) => ({ role: "tool", content }));

export const looseMessages: fc.Arbitrary<Message[]> = fc.array(
  fc.oneof(userMessage, assistantMessage, toolMessage),
  { maxLength: 25 },
);
