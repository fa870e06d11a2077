import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { ScriptedAnswer } from "../simulator/caching-anthropic-server.js";
import type { RecordedRequest } from "../simulator/fake-provider-types.js";

/**
 * The synthetic long, tool-heavy session of the context benchmark (issue 34): each turn the model
 * reads one or two slices of a large file in the project, with real tools, before answering; each
 * output is 0.5k-20k tokens (log-uniform, seeded), and the user pauses between turns, sometimes
 * longer than the prompt cache lives. Everything follows from the seed, so every mode replays the
 * same session.
 */
export interface ToolHeavyPlan {
  turns: TurnPlan[];
}

export interface TurnPlan {
  /** The user's pause before this turn, in simulated milliseconds (0 for the first). */
  pauseMs: number;
  calls: PlannedCall[];
}

export type PlannedCall =
  /** `bash` prints a byte range of the file (its output is capped at 30,000 characters). */
  | { tool: "bash"; offset: number; bytes: number }
  /** `read` returns a line range, numbered (for outputs bash could not return whole). */
  | { tool: "read"; line: number; lines: number };

export const DATA_FILE = "data.txt";
/** Lines in the data file and characters on each (newline included). */
const DATA_LINES = 30_000;
const LINE_CHARS = 78;
/** bash's output limit is 30,000 characters: larger outputs go through read. */
const BASH_MAX_BYTES = 28_000;
/** Characters read adds per line ("  1234\t" and the newline), beyond the line's own. */
const READ_LINE_OVERHEAD = 8;
/** One pause in this many is longer than the cache's five minutes. */
const LONG_PAUSE_EVERY = 7;

/** A small seeded generator (mulberry32): the same seed gives the same session everywhere. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export function planToolHeavySession(options: {
  turns: number;
  seed: number;
  minTokens: number;
  maxTokens: number;
}): ToolHeavyPlan {
  const random = seededRandom(options.seed);
  const between = (low: number, high: number): number => low + random() * (high - low);
  const turns: TurnPlan[] = [];
  for (let turn = 0; turn < options.turns; turn++) {
    const long = random() * LONG_PAUSE_EVERY < 1;
    const pauseMs = turn === 0 ? 0 : Math.round(long ? between(6, 30) * 60_000 : between(10, 150) * 1000);
    const calls: PlannedCall[] = [];
    const count = random() < 0.5 ? 1 : 2;
    for (let index = 0; index < count; index++) {
      const tokens = Math.exp(between(Math.log(options.minTokens), Math.log(options.maxTokens)));
      const characters = Math.round(tokens * 4);
      if (characters <= BASH_MAX_BYTES) {
        const offset = Math.floor(random() * (DATA_LINES * LINE_CHARS - characters));
        calls.push({ tool: "bash", offset, bytes: characters });
      } else {
        const lines = Math.ceil(characters / (LINE_CHARS + READ_LINE_OVERHEAD));
        calls.push({ tool: "read", line: 1 + Math.floor(random() * (DATA_LINES - lines)), lines });
      }
    }
    turns.push({ pauseMs, calls });
  }
  return { turns };
}

/** Writes the data file the tools read: numbered lines of seeded hexadecimal words. */
export async function writeDataFile(project: string, seed: number): Promise<void> {
  const random = seededRandom(seed);
  const lines: string[] = [];
  for (let line = 0; line < DATA_LINES; line++) {
    let text = `${String(line + 1).padStart(6, "0")}`;
    while (text.length < LINE_CHARS - 1)
      text += ` ${Math.floor(random() * 0xffffffff)
        .toString(16)
        .padStart(8, "0")}`;
    lines.push(text.slice(0, LINE_CHARS - 1));
  }
  await writeFile(join(project, DATA_FILE), `${lines.join("\n")}\n`);
}

/** The prompt of turn `turn`: the scripted model knows the turn from its number. */
export function turnPrompt(turn: number): string {
  return `Turn ${turn}: look through the data for the next anomaly and report it.`;
}

const CALL_ID = /^toolu_t(\d+)_(\d+)$/;
const SUMMARY_TEXT = `## Goal\nFind the anomalies in ${DATA_FILE}.\n\n## Progress\n${"Turns so far read slices of the data file and reported one anomaly each; none is open. ".repeat(60)}`;

/**
 * The scripted model. A summary request (no tools) gets a fixed ~1,500-token summary. Otherwise the
 * turn is the latest "Turn N" prompt the request holds; the call to make is the one after the
 * latest result of that turn (ids name the turn and the call), and once all are answered, a short
 * report ends the turn.
 */
export function toolHeavyAnswer(plan: ToolHeavyPlan): (request: RecordedRequest) => ScriptedAnswer {
  return (request) => {
    const body = request.body as { tools?: unknown[]; messages?: Array<{ content?: unknown }> };
    if (!body.tools?.length) return { type: "text", text: SUMMARY_TEXT };
    const messages = body.messages ?? [];
    const turn = latestTurn(messages);
    const planned = plan.turns[turn]?.calls ?? [];
    const next = nextCallIndex(messages.at(-1)?.content, turn);
    const call = planned[next];
    if (call === undefined)
      return {
        type: "text",
        text: `Turn ${turn}: the anomaly is in the slice read last; ${"the values drift upward. ".repeat(20)}`,
      };
    const id = `toolu_t${turn}_${next}`;
    return call.tool === "bash"
      ? {
          type: "tool-calls",
          calls: [
            {
              id,
              name: "bash",
              arguments: { command: `tail -c +${call.offset + 1} ${DATA_FILE} | head -c ${call.bytes}` },
            },
          ],
        }
      : {
          type: "tool-calls",
          calls: [{ id, name: "read", arguments: { path: DATA_FILE, offset: call.line, limit: call.lines } }],
        };
  };
}

function latestTurn(messages: ReadonlyArray<{ content?: unknown }>): number {
  for (let index = messages.length - 1; index >= 0; index--) {
    for (const block of blocksOf(messages[index]?.content)) {
      const match = typeof block.text === "string" ? /^Turn (\d+):/.exec(block.text) : null;
      if (match !== null && block.type === "text") return Number(match[1]);
    }
  }
  return 0;
}

/** The call after the last result of `turn` in the latest message; 0 when it holds none. */
function nextCallIndex(content: unknown, turn: number): number {
  let next = 0;
  for (const block of blocksOf(content)) {
    const match = typeof block.tool_use_id === "string" ? CALL_ID.exec(block.tool_use_id) : null;
    if (match !== null && Number(match[1]) === turn) next = Math.max(next, Number(match[2]) + 1);
  }
  return next;
}

function blocksOf(content: unknown): Array<Record<string, unknown>> {
  if (typeof content === "string") return [{ type: "text", text: content }];
  return Array.isArray(content) ? (content as Array<Record<string, unknown>>) : [];
}
