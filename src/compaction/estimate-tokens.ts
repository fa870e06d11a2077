import {
  type AssistantMessage,
  cachedImageInfo,
  type ImageBlock,
  imageTokens,
  type Message,
  type TextBlock,
  type ToolResultMessage,
} from "../core/index.js";
import { IMAGE_TOKENS_BOUND } from "./token-upper-bound.js";

/** Framing every provider adds around a message (role markers, separators). */
const MESSAGE_OVERHEAD_TOKENS = 4;

/** Framing around one tool call or tool result (ids, names, wrappers). */
const TOOL_BLOCK_OVERHEAD_TOKENS = 8;

/**
 * Charge for an image whose size cannot be read from its header. Anthropic scales images to at
 * most ~1.15 megapixels (about 1,600 tokens); OpenAI and Gemini charge less for most pictures.
 */
export const IMAGE_TOKEN_ESTIMATE = 1600;

/**
 * What an image costs, from its size in pixels: the most any provider's documented formula counts
 * for it (imageTokens), since the estimate does not know which provider will be asked and errs
 * large; never above IMAGE_TOKENS_BOUND, the certain ceiling.
 */
export function estimateImageTokens(image: ImageBlock): number {
  const info = typeof image.data === "string" ? cachedImageInfo(image) : undefined;
  if (info === undefined) return IMAGE_TOKEN_ESTIMATE;
  const formulas = ["anthropic", "openai", "gemini"] as const;
  const most = Math.max(...formulas.map((formula) => imageTokens(info.width, info.height, formula)));
  return Math.min(IMAGE_TOKENS_BOUND, most);
}

/**
 * A cheap local token estimate that errs large on every kind of text a coding session holds.
 *
 * Plain `chars / 4` is right for English prose only: code, JSON and random identifiers pack two to
 * three characters into a token, and CJK text costs one or more tokens per character. So each
 * character class is charged on its own:
 * - a run of ASCII letters costs one token per three letters, rounded up (a camelCase hump starts a
 *   new run, as BPE vocabularies split there);
 * - every digit, ASCII punctuation mark and newline costs a token (tokenisers that split digits one
 *   by one, such as Llama's and Gemini's, exist);
 * - the first space or tab after non-space text is free (it joins the next word), further ones cost
 *   a quarter each; a space before a digit is charged a whole token (cl100k keeps it apart);
 * - a character outside ASCII costs by its UTF-8 length: 1 for two bytes (accented Latin,
 *   Cyrillic, Greek), 2 for three (CJK, kana, Hangul, symbols: published counts run from 1 to
 *   1.56 tokens a character, and tokenisers we cannot measure offline may spend more), 3 for four
 *   (emoji).
 *
 * Measured against published tokeniser counts in `test/compaction/token-samples.ts`.
 */
export function estimateTokens(text: string): number {
  // A table-driven automaton: one table read per character gives its cost in quarter tokens and the
  // next state, with no data-dependent branch for ASCII text. This runs over every character of a
  // session when a compaction is prepared, so the step is kept to a load, a mask and a shift.
  let quarters = 0;
  let row = START * STEP_COLUMNS;
  const length = text.length;
  for (let index = 0; index < length; index++) {
    const code = text.charCodeAt(index);
    let column = code;
    if (code >= 0x80) {
      if (code < 0x800) column = TWO_BYTE_COLUMN;
      else if (code >= 0xd800 && code <= 0xdbff) {
        column = FOUR_BYTE_COLUMN;
        // A low surrogate follows its high surrogate and was charged with it.
        index++;
      } else column = THREE_BYTE_COLUMN;
    }
    const step = STEP[row + column] as number;
    quarters += step & QUARTERS_MASK;
    row = step >> QUARTERS_BITS;
  }
  return Math.ceil(quarters / 4);
}

// Character classes.
const LOWER = 0;
const UPPER = 1;
const SPACE = 2;
/** Tab and carriage return: blank, but not the space that keeps a digit apart. */
const TAB_OR_CR = 3;
const NEWLINE = 4;
const DIGIT = 5;
/** Other ASCII (punctuation, control) and two-byte UTF-8. */
const ONE_TOKEN = 6;
const TWO_TOKENS = 7;
const THREE_TOKENS = 8;
const CLASS_COUNT = 9;

// States: what the previous character was. Inside a run of letters, the run's length modulo 3
// (a letter whose position in its run is 1 modulo 3 starts a new token).
const START = 0;
const AFTER_SPACE = 1;
/** After a tab, carriage return or newline. */
const AFTER_BLANK = 2;
const AFTER_OTHER = 3;
/** Index = run length modulo 3. */
const IN_LOWER_RUN = [4, 5, 6] as const;
const IN_UPPER_RUN = [7, 8, 9] as const;
const STATE_COUNT = 10;

const ASCII_CLASS = new Uint8Array(0x80).fill(ONE_TOKEN);
const QUARTER_COST = new Uint8Array(STATE_COUNT * CLASS_COUNT);
const NEXT_STATE = new Uint8Array(STATE_COUNT * CLASS_COUNT);
buildTables();

// The step table the loop reads: one row per state, one column per ASCII code plus three columns
// for the longer UTF-8 lengths. Each entry holds the next state's row offset above the character's
// cost in quarter tokens (at most 12, so 4 bits).
const TWO_BYTE_COLUMN = 0x80;
const THREE_BYTE_COLUMN = 0x81;
const FOUR_BYTE_COLUMN = 0x82;
const STEP_COLUMNS = 0x83;
const QUARTERS_BITS = 4;
const QUARTERS_MASK = (1 << QUARTERS_BITS) - 1;
const STEP = new Uint16Array(STATE_COUNT * STEP_COLUMNS);
buildStepTable();

function buildStepTable(): void {
  const columnClass = (column: number): number => {
    if (column < 0x80) return ASCII_CLASS[column] as number;
    if (column === TWO_BYTE_COLUMN) return ONE_TOKEN;
    return column === THREE_BYTE_COLUMN ? TWO_TOKENS : THREE_TOKENS;
  };
  for (let state = 0; state < STATE_COUNT; state++) {
    for (let column = 0; column < STEP_COLUMNS; column++) {
      const at = state * CLASS_COUNT + columnClass(column);
      const nextRow = (NEXT_STATE[at] as number) * STEP_COLUMNS;
      STEP[state * STEP_COLUMNS + column] = (nextRow << QUARTERS_BITS) | (QUARTER_COST[at] as number);
    }
  }
}

function buildTables(): void {
  for (let code = 0x61; code <= 0x7a; code++) ASCII_CLASS[code] = LOWER;
  for (let code = 0x41; code <= 0x5a; code++) ASCII_CLASS[code] = UPPER;
  for (let code = 0x30; code <= 0x39; code++) ASCII_CLASS[code] = DIGIT;
  ASCII_CLASS[0x20] = SPACE;
  ASCII_CLASS[0x09] = TAB_OR_CR;
  ASCII_CLASS[0x0d] = TAB_OR_CR;
  ASCII_CLASS[0x0a] = NEWLINE;
  for (let state = 0; state < STATE_COUNT; state++) {
    const set = (kind: number, quarters: number, next: number) => {
      QUARTER_COST[state * CLASS_COUNT + kind] = quarters;
      NEXT_STATE[state * CLASS_COUNT + kind] = next;
    };
    const lowerRun = IN_LOWER_RUN.indexOf(state as 4 | 5 | 6);
    const upperRun = IN_UPPER_RUN.indexOf(state as 7 | 8 | 9);
    const run = Math.max(lowerRun, upperRun);
    // A letter continues the run (an upper-case letter after a lower-case one starts a new one).
    const continued = (run + 1) % 3;
    if (run >= 0) set(LOWER, continued === 1 ? 4 : 0, IN_LOWER_RUN[continued] as number);
    else set(LOWER, 4, IN_LOWER_RUN[1]);
    if (upperRun >= 0) set(UPPER, continued === 1 ? 4 : 0, IN_UPPER_RUN[continued] as number);
    else set(UPPER, 4, IN_UPPER_RUN[1]);
    const afterBlank = state === START || state === AFTER_SPACE || state === AFTER_BLANK;
    set(SPACE, afterBlank ? 1 : 0, AFTER_SPACE);
    set(TAB_OR_CR, afterBlank ? 1 : 0, AFTER_BLANK);
    set(NEWLINE, 4, AFTER_BLANK);
    set(DIGIT, state === AFTER_SPACE ? 8 : 4, AFTER_OTHER);
    set(ONE_TOKEN, 4, AFTER_OTHER);
    set(TWO_TOKENS, 8, AFTER_OTHER);
    set(THREE_TOKENS, 12, AFTER_OTHER);
  }
}

/**
 * Local estimate of what one message costs as model input: the text of every block, tool call
 * names with their JSON arguments, tool results, readable and redacted thinking, a fixed charge per
 * image, and a little framing per message and per tool block.
 */
export function estimateMessageTokens(message: Message): number {
  return estimateMessageBreakdown(message).tokens;
}

/** {@link estimateMessageTokens} with the parts that vary most between providers told apart. */
export interface MessageEstimate {
  /** The whole estimate. */
  tokens: number;
  /** Of which fixed image charges. */
  imageTokens: number;
  /** Of which thinking (not re-sent in later requests by most providers). */
  thinkingTokens: number;
}

/** What one text costs: {@link estimateTokens}, or a bound of it (see estimate-bounds.ts). */
type TextTokens = (text: string) => number;

/** {@link MessageEstimate} of one message, each text costed by `textTokens`. */
export function estimateMessageBreakdown(
  message: Message,
  textTokens: TextTokens = estimateTokens,
): MessageEstimate {
  const estimate = { tokens: MESSAGE_OVERHEAD_TOKENS, imageTokens: 0, thinkingTokens: 0 };
  if (message.role === "user") addParts(estimate, message.content, textTokens);
  else if (message.role === "assistant") addAssistantContent(estimate, message, textTokens);
  else addToolResults(estimate, message, textTokens);
  return estimate;
}

function addParts(
  estimate: MessageEstimate,
  parts: ReadonlyArray<TextBlock | ImageBlock>,
  textTokens: TextTokens,
): void {
  for (const part of parts) {
    if (part.type === "text") {
      estimate.tokens += textTokens(part.text);
    } else {
      const tokens = estimateImageTokens(part);
      estimate.tokens += tokens;
      estimate.imageTokens += tokens;
    }
  }
}

function addAssistantContent(
  estimate: MessageEstimate,
  message: AssistantMessage,
  textTokens: TextTokens,
): void {
  for (const block of message.content) {
    if (block.type === "text") {
      estimate.tokens += textTokens(block.text);
    } else if (block.type === "thinking") {
      const thinking = textTokens(block.text) + textTokens(block.redacted ?? "");
      estimate.tokens += thinking;
      estimate.thinkingTokens += thinking;
    } else {
      const args = JSON.stringify(block.arguments) ?? "";
      estimate.tokens += TOOL_BLOCK_OVERHEAD_TOKENS + textTokens(block.name) + textTokens(args);
    }
  }
}

function addToolResults(estimate: MessageEstimate, message: ToolResultMessage, textTokens: TextTokens): void {
  for (const block of message.content) {
    estimate.tokens += TOOL_BLOCK_OVERHEAD_TOKENS + textTokens(block.toolName);
    addParts(estimate, block.content, textTokens);
  }
}
