import { EventEmitter } from "node:events";
import { emitKeypressEvents, type Key } from "node:readline";
import { HISTORY_NEWLINE } from "./prompt-history.js";

/** Asks the terminal to mark pastes with ESC[200~ … ESC[201~ (bracketed paste), and to stop. */
export const BRACKETED_PASTE_ON = "\u001b[?2004h";
export const BRACKETED_PASTE_OFF = "\u001b[?2004l";

/** Shift-Enter and Alt-Enter as terminals with extended key reporting send them (fixterms / kitty). */
const NEWLINE_SEQUENCES = new Set(["\u001b[13;2u", "\u001b[13;3u", "\u001b[13;4u"]);
/** node:readline splits xterm's modifyOtherKeys form, ESC[27;2;13~, after its second parameter. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: escape sequences start with ESC.
const MODIFIED_KEY_START = /^\u001b\[27;\d+;$/;

/** Two Escape presses this close together are one Esc Esc (a quick pair arrives as one ESC ESC key). */
export const DOUBLE_ESCAPE_MS = 1000;

/** A paste of more lines than this is shown as one `[pasted N lines #k]` token, expanded when sent. */
export const PASTE_COLLAPSE_LINES = 10;
/** A paste longer than this (in characters, on fewer lines) is collapsed too. */
export const PASTE_COLLAPSE_CHARS = 2000;
const PASTE_TOKEN = /\[pasted (\d+) lines? #(\d+)\]/g;

/** Takes a key before readline sees it; returns true when it was used up. */
export type KeyInterceptor = (text: string | undefined, key: Key) => boolean;

type Stdin = NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (raw: boolean) => void };
type Terminal = NodeJS.WritableStream & { isTTY?: boolean };

/**
 * The keyboard, between the terminal and node:readline (which is given this object as its input
 * and reads its `keypress` events). It adds what readline lacks:
 * - bracketed paste: a pasted block reaches readline as one insertion, its line breaks shown as
 *   {@link HISTORY_NEWLINE} (turned back into newlines when the prompt is sent), so nothing is
 *   sent until Enter, whatever the paste ends with;
 * - Alt-Enter, and Shift-Enter where the terminal reports it, insert such a line break;
 * - an interceptor that may take single keys first (a one-key permission answer).
 * History, editing keys and Ctrl-C stay readline's.
 */
export class KeyInput extends EventEmitter {
  readonly isTTY = true;
  /** Set while something (a permission question) answers to single keys. */
  intercept: KeyInterceptor | undefined;
  /** Called on Esc Esc (when no interceptor took the keys); readline never sees them. */
  onDoubleEscape: (() => void) | undefined;
  /** Called on Shift+Tab (ESC [ Z; when no interceptor took it), which readline would take for Tab. */
  onShiftTab: (() => void) | undefined;
  #lastEscape = 0;
  readonly #stdin: Stdin;
  #paste: string | undefined;
  /** Collapsed pastes by their number in this session, kept so a recalled prompt still expands. */
  readonly #pastes = new Map<number, string>();
  /** The rest of a split ESC[27;…;…~ sequence, collected until its "~". */
  #modified: string | undefined;
  #terminal: Terminal | undefined;
  readonly #onExit = (): void => this.disablePaste();
  readonly #onSignal = (signal: NodeJS.Signals): void => {
    this.disablePaste();
    // Ended by the signal as if unhandled, unless someone else handles it (the REPL keeps a
    // partial answer on SIGHUP before it exits).
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  };

  constructor(stdin: Stdin) {
    super();
    this.#stdin = stdin;
    emitKeypressEvents(stdin);
    stdin.on("keypress", (text: string | undefined, key: Key | undefined) => this.#onKey(text, key ?? {}));
    stdin.on("end", () => this.emit("end"));
    stdin.on("error", (error) => this.emit("error", error));
  }

  setRawMode(raw: boolean): this {
    this.#stdin.setRawMode?.(raw);
    return this;
  }

  pause(): this {
    this.#stdin.pause();
    return this;
  }

  resume(): this {
    this.#stdin.resume();
    return this;
  }

  /**
   * Turns bracketed paste on in `terminal`; it is turned off again by {@link disablePaste}, and
   * also if the process exits or is killed by SIGTERM or SIGHUP before that.
   */
  enablePaste(terminal: Terminal): void {
    if (terminal.isTTY !== true || this.#terminal !== undefined) return;
    this.#terminal = terminal;
    terminal.write(BRACKETED_PASTE_ON);
    process.once("exit", this.#onExit);
    process.once("SIGTERM", this.#onSignal);
    process.once("SIGHUP", this.#onSignal);
  }

  disablePaste(): void {
    const terminal = this.#terminal;
    if (terminal === undefined) return;
    this.#terminal = undefined;
    terminal.write(BRACKETED_PASTE_OFF);
    process.removeListener("exit", this.#onExit);
    process.removeListener("SIGTERM", this.#onSignal);
    process.removeListener("SIGHUP", this.#onSignal);
  }

  #onKey(text: string | undefined, key: Key): void {
    if (key.name === "paste-start") {
      this.#paste = "";
      return;
    }
    if (this.#paste !== undefined) {
      if (key.name !== "paste-end") this.#paste += key.sequence ?? text ?? "";
      else {
        const pasted = this.#paste;
        this.#paste = undefined;
        this.#insert(this.#collapse(pasted));
      }
      return;
    }
    if (this.#modified !== undefined) {
      this.#modified += key.sequence ?? "";
      if (!this.#modified.endsWith("~") && this.#modified.length < 6) return;
      const isEnter = this.#modified === "13~";
      this.#modified = undefined;
      if (isEnter) this.#insert(HISTORY_NEWLINE);
      return;
    }
    if (MODIFIED_KEY_START.test(key.sequence ?? "")) {
      this.#modified = "";
      return;
    }
    if (isNewlineKey(key)) {
      this.#insert(HISTORY_NEWLINE);
      return;
    }
    if (this.intercept?.(text, key) === true) return;
    if (this.#doubleEscape(key)) return;
    if (key.name === "tab" && key.shift === true && this.onShiftTab !== undefined) {
      this.onShiftTab();
      return;
    }
    this.emit("keypress", text, key);
  }

  /**
   * The prompt line for a paste: a short one as it is (its breaks as {@link HISTORY_NEWLINE}), a
   * long one as a `[pasted N lines #k]` token, so the prompt stays readable and editable;
   * {@link expandPastes} puts the text back when the prompt is sent.
   */
  #collapse(pasted: string): string {
    const line = pasteAsLine(pasted);
    const lines = line === "" ? 0 : line.split(HISTORY_NEWLINE).length;
    if (lines <= PASTE_COLLAPSE_LINES && line.length <= PASTE_COLLAPSE_CHARS) return line;
    const number = this.#pastes.size + 1;
    this.#pastes.set(number, line.split(HISTORY_NEWLINE).join("\n"));
    return `[pasted ${lines} line${lines === 1 ? "" : "s"} #${number}]`;
  }

  /** `text` with each `[pasted N lines #k]` token of this session replaced by the text pasted. */
  expandPastes(text: string): string {
    return text.replace(
      PASTE_TOKEN,
      (token, _lines: string, number: string) => this.#pastes.get(Number(number)) ?? token,
    );
  }

  /** Whether this Escape completes an Esc Esc, which is then handed to `onDoubleEscape`. */
  #doubleEscape(key: Key): boolean {
    if (key.name !== "escape" || this.onDoubleEscape === undefined) return false;
    const now = Date.now();
    // node:readline reports a quick pair as one key (ESC ESC), a lone one half a second after it.
    if (key.sequence !== "\u001b\u001b" && now - this.#lastEscape > DOUBLE_ESCAPE_MS) {
      this.#lastEscape = now;
      return false;
    }
    this.#lastEscape = 0;
    this.onDoubleEscape();
    return true;
  }

  /** Hands readline text to insert at the cursor, as one key carrying the whole text. */
  #insert(text: string): void {
    if (text === "") return;
    const key: Key = { sequence: text, ctrl: false, meta: false, shift: false };
    if (this.intercept?.(text, key) === true) return;
    this.emit("keypress", text, key);
  }
}

function isNewlineKey(key: Key): boolean {
  if (key.meta === true && (key.name === "return" || key.name === "enter")) return true;
  return NEWLINE_SEQUENCES.has(key.sequence ?? "");
}

/**
 * A pasted block as one prompt line: line breaks (CRLF, CR or LF) become {@link HISTORY_NEWLINE},
 * trailing ones are dropped (the prompt is sent by Enter, not by the paste), and control characters
 * other than tab are left out so they cannot move the cursor.
 */
export function pasteAsLine(pasted: string): string {
  return (
    pasted
      .replace(/\r\n?/g, "\n")
      .replace(/\n+$/, "")
      // biome-ignore lint/suspicious/noControlCharactersInRegex: dropping control characters is the point.
      .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, "")
      .split("\n")
      .join(HISTORY_NEWLINE)
  );
}
