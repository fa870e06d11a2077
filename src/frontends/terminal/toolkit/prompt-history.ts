import { HISTORY_SIZE } from "./history.js";

/** Stands for a line break inside one history entry, so a multi-line prompt is recalled whole. */
export const HISTORY_NEWLINE = "↵";

/**
 * The interactive prompt's history: one entry per prompt sent, newest first, in the very array
 * node:readline navigates with Up and Down. readline would record every line typed (each piece of
 * a `\`-continued or pasted prompt, answers to permission questions); this class undoes readline's
 * own additions and records whole prompts instead, a multi-line one as a single entry with
 * {@link HISTORY_NEWLINE} where its line breaks were.
 */
export class PromptHistory {
  /** Newest first; hand this very array to readline as its `history`. */
  readonly entries: string[];
  readonly #save: (entries: readonly string[]) => void;
  #top: string | undefined;

  constructor(entries: string[], save: (entries: readonly string[]) => void) {
    this.entries = entries;
    this.#save = save;
    this.#top = entries[0];
  }

  /**
   * readline's `history` listener. readline has just put the typed line in front, unless it equals
   * the current newest entry; take it out again (needs `removeHistoryDuplicates: false`, so that
   * readline removes nothing else, and a readline `historySize` above {@link HISTORY_SIZE}).
   */
  undoReadlineEntry(lines: string[]): void {
    if (lines[0] !== this.#top) lines.shift();
  }

  /** Records a prompt that was sent (or queued): trimmed, de-duplicated, newest first. */
  add(prompt: string): void {
    const entry = prompt.trim().split("\n").join(HISTORY_NEWLINE);
    if (entry === "") return;
    const existing = this.entries.indexOf(entry);
    if (existing >= 0) this.entries.splice(existing, 1);
    this.entries.unshift(entry);
    this.entries.splice(HISTORY_SIZE);
    this.#top = entry;
    this.#save(this.entries);
  }
}

/** Turns a line recalled from history back into the prompt it was (line breaks restored). */
export function fromHistoryLine(line: string): string {
  return line.split(HISTORY_NEWLINE).join("\n");
}
