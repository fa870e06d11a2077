import { join } from "node:path";
import { createInterface, type Interface } from "node:readline";
import type { ToolCallBlock } from "../../core/index.js";
import { shorten } from "../../runtime/format-text.js";
import type { ApprovalAnswer, AskedRequest, RewindChoice } from "../../runtime/front-end.js";
import type { RunContext } from "../../runtime/run-context.js";
import { todoCountText } from "../../runtime/todo-text.js";
import { todosInForce } from "../../todos/index.js";
import type { Tool } from "../../tools/index.js";
import type { CliIo } from "../shared/cli-io.js";
import { EXIT_HANGUP, EXIT_INTERRUPTED, EXIT_OK } from "../shared/exit-status.js";
import type { Style } from "../shared/style.js";
import { executeLine } from "./interactive-execute.js";
import { printBanner } from "./interactive-extras.js";
import { ApprovalPrompt, takeLine } from "./toolkit/approval-prompt.js";
import { DraftReview } from "./toolkit/draft-review.js";
import { editorOverTerminal } from "./toolkit/editor-over-terminal.js";
import { createHistoryWriter, HISTORY_SIZE, loadHistory } from "./toolkit/history.js";
import { KeyInput } from "./toolkit/key-input.js";
import type { KeyListener, PickerSurface } from "./toolkit/list-picker.js";
import { MutableOutput } from "./toolkit/mutable-output.js";
import { createPromptCompleter } from "./toolkit/prompt-completer.js";
import { fromHistoryLine, PromptHistory } from "./toolkit/prompt-history.js";
import { runRewindDialog } from "./toolkit/rewind-dialog.js";
import type { TerminalRenderer } from "./toolkit/terminal-renderer.js";

/** Lines that arrive closer together than this are one paste and are sent as one prompt. */
const PASTE_WINDOW_MS = 25;
/** A second Ctrl-C at an empty prompt within this time exits. */
const DOUBLE_INTERRUPT_MS = 2000;
const PROMPT = "> ";
const CONTINUATION_PROMPT = "… ";

/** The read-eval-print loop's state: one request at a time, approvals, multi-line input, Ctrl-C. */
export class Repl {
  readonly #io: CliIo;
  readonly #style: Style;
  readonly #renderer: TerminalRenderer;
  readonly #approval: ApprovalPrompt;
  readonly #review: DraftReview;
  readonly #output: MutableOutput;
  #rl: Interface | undefined;
  /** The keyboard in front of readline (bracketed paste, Alt-Enter, one-key answers); terminals only. */
  #keys: KeyInput | undefined;
  #run: RunContext | undefined;
  #history: PromptHistory | undefined;
  #busy: AbortController | undefined;
  #lines: string[] = [];
  /** Prompts typed while a request was running, sent in order afterwards. */
  #queue: string[] = [];
  #pasteTimer: NodeJS.Timeout | undefined;
  #lastIdleInterrupt = 0;
  #settle: (code: number) => void = () => {};
  #closing = false;
  /** The status once closing: 0 for Ctrl-D or /exit, 129 when the terminal hung up. */
  #closingCode = EXIT_OK;

  constructor(io: CliIo, style: Style, renderer: TerminalRenderer) {
    this.#io = io;
    this.#style = style;
    this.#renderer = renderer;
    this.#approval = new ApprovalPrompt(renderer, style);
    this.#review = new DraftReview(renderer, style);
    this.#output = new MutableOutput(io.stdout);
  }

  /** Runs the session; `firstPrompt` (`panto "PROMPT"`) is sent at once, as if typed. */
  async start(run: RunContext, firstPrompt?: string): Promise<number> {
    this.#run = run;
    const historyPath = join(run.pantoHome, "history");
    const writer = createHistoryWriter(
      historyPath,
      (message) => this.#renderer.warning(message),
      this.#io.secrets?.redact,
    );
    const history = new PromptHistory(await loadHistory(historyPath), (entries) => writer.save(entries));
    this.#history = history;
    const keys = this.#io.stdin.isTTY === true ? new KeyInput(this.#io.stdin) : undefined;
    this.#keys = keys;
    const rl = createInterface({
      // readline reads a terminal's keypress events only (and calls pause, resume, setRawMode).
      input: keys === undefined ? this.#io.stdin : (keys as unknown as NodeJS.ReadableStream),
      output: this.#output,
      terminal: this.#io.stdin.isTTY === true,
      history: history.entries,
      // One above PromptHistory's cap, so readline never drops an entry of its own accord.
      historySize: HISTORY_SIZE + 1,
      removeHistoryDuplicates: false,
      completer: createPromptCompleter(run, run.cwd),
      prompt: PROMPT,
    });
    this.#rl = rl;
    rl.on("history", (lines) => history.undoReadlineEntry(lines));
    rl.on("line", (line) => this.#onLine(line));
    rl.on("SIGINT", () => this.#onInterrupt());
    rl.on("close", () => this.#onClose());
    // The terminal went away (its raw mode cannot be reset: EIO): as a hang-up, never a crash.
    rl.on("error", () => this.#onHangUp());
    if (keys !== undefined) {
      keys.intercept = (text, key) => this.#approval.key(rl, text, key);
      keys.onDoubleEscape = () => this.#onDoubleEscape();
      keys.onShiftTab = () => this.#onShiftTab();
    }
    printBanner(run, this.#io.version, this.#renderer, this.#style);
    // A resumed (or forked) session's list is in force from the start: its count is in the status line.
    this.#renderer.tasks(todoCountText(todosInForce(run.session)));
    await run.sessionStart();
    keys?.enablePaste(this.#io.stdout);
    const onHangUp = (): void => this.#onHangUp();
    process.on("SIGHUP", onHangUp);
    try {
      const code = await new Promise<number>((resolve) => {
        this.#settle = (exitCode) => {
          this.#settle = () => {};
          resolve(exitCode);
        };
        if (firstPrompt === undefined) rl.prompt();
        else {
          history.add(firstPrompt);
          this.#renderer.line(`${PROMPT}${firstPrompt}`);
          void this.#submit(firstPrompt);
        }
      });
      this.#closing = true;
      rl.close();
      await writer.flush();
      return code;
    } finally {
      process.removeListener("SIGHUP", onHangUp);
      keys?.disablePaste();
    }
  }

  /**
   * The run's approval asker: y = this once, a = always (the suggested rules, kept where the user
   * says; without any, this tool this session), n = no. Asked only about calls the run's policy
   * does not already allow; none while a request is cancelled.
   */
  async askApproval(
    call: ToolCallBlock,
    tool: Tool,
    request?: AskedRequest,
    origin?: string,
  ): Promise<ApprovalAnswer> {
    const rl = this.#rl;
    if (rl === undefined || this.#busy?.signal.aborted === true || this.#closing) return "deny";
    this.#renderer.stopStatus();
    this.#renderer.endLine();
    const files = this.#run?.approvals.runRules?.files;
    const answer = await this.#approval.ask(rl, this.#output, call, tool, request, origin, files);
    rl.setPrompt(PROMPT);
    return answer;
  }

  /**
   * The run's review of a draft (`/handoff`): shows it, then y starts with it, e opens it in the
   * editor first (what is saved is started), n (or Ctrl-C) starts nothing.
   */
  async reviewDraft(draft: string): Promise<string | undefined> {
    const rl = this.#rl;
    if (rl === undefined || this.#busy?.signal.aborted === true || this.#closing) return undefined;
    this.#renderer.stopStatus();
    this.#renderer.endLine();
    const answer = await this.#review.ask(rl, this.#output, draft);
    rl.setPrompt(PROMPT);
    if (answer === "no") return undefined;
    return answer === "yes" ? draft : this.editText(`${draft}\n`);
  }

  /**
   * The rewind list (`/rewind` alone, Esc Esc): the session's turns, then how to rewind, then
   * conflicts; every key goes to it while it is open.
   */
  chooseRewind(sessionPath: string, pantoHome: string): Promise<RewindChoice> {
    const keys = this.#keys;
    if (keys === undefined) return Promise.resolve({ type: "cancelled" });
    this.#renderer.endLine();
    const listen = (listener: KeyListener): (() => void) => {
      const previous = keys.intercept;
      keys.intercept = (text, key) => {
        listener(text, key);
        return true;
      };
      return () => {
        keys.intercept = previous;
      };
    };
    const surface: PickerSurface = { stdout: this.#io.stdout, listen };
    const confirm = (question: string): Promise<boolean> =>
      new Promise((resolve) => {
        this.#io.stdout.write(question);
        const stop = listen((text) => {
          stop();
          this.#io.stdout.write(`${text === "y" || text === "Y" ? "y" : "n"}\n`);
          resolve(text === "y" || text === "Y");
        });
      });
    return runRewindDialog(sessionPath, pantoHome, { surface, confirm });
  }

  /**
   * A line that arrives while the user is at the prompt (a compaction prepared in the background):
   * written above the prompt, which is drawn again with what was typed so far. While a request runs
   * it is an ordinary line of the output.
   */
  notice(text: string): void {
    const rl = this.#rl;
    const idle =
      rl !== undefined &&
      this.#busy === undefined &&
      !this.#approval.waiting &&
      !this.#review.waiting &&
      !this.#closing;
    if (!idle) {
      this.#renderer.line(text);
      return;
    }
    if (this.#io.stdin.isTTY === true) this.#io.stdout.write("\r\x1b[2K");
    else this.#io.stdout.write("\n");
    this.#renderer.line(text);
    rl.prompt(true);
  }

  /** Esc Esc at the prompt opens the rewind list, as `/rewind` does; while a request runs it waits its turn. */
  #onDoubleEscape(): void {
    if (this.#busy !== undefined || this.#approval.waiting || this.#rl === undefined) return;
    this.#io.stdout.write("\n");
    void this.#submit("/rewind");
  }

  /**
   * Shift+Tab: the next mode (ask, accept edits, plan; see ApprovalPolicy.cycle), said on a line of
   * its own (the run's mode-changed event) above the prompt, which is drawn again as it was.
   */
  #onShiftTab(): void {
    const rl = this.#rl;
    const run = this.#run;
    if (rl === undefined || run === undefined || this.#approval.waiting || this.#review.waiting) return;
    const idle = this.#busy === undefined && !this.#closing;
    if (idle) this.#io.stdout.write("\r\x1b[2K");
    run.approvals.cycleMode();
    if (idle) rl.prompt(true);
  }

  /**
   * After an answer in plan mode: one key, y leaves plan mode for the mode before it (the plan's
   * task list in force), anything else stays in plan mode. Only on a terminal that gives keys.
   */
  async #offerToLeavePlan(run: RunContext): Promise<void> {
    const keys = this.#keys;
    if (keys === undefined || this.#closing) return;
    this.#output.muted = false;
    this.#io.stdout.write(this.#style.yellow("Accept the plan and leave plan mode? (y/N) "));
    const yes = await new Promise<boolean>((resolve) => {
      const previous = keys.intercept;
      keys.intercept = (text) => {
        keys.intercept = previous;
        const accepted = text === "y" || text === "Y";
        this.#io.stdout.write(`${accepted ? "y" : "n"}\n`);
        resolve(accepted);
        return true;
      };
    });
    if (yes) this.#renderer.commandOutcome(await run.runCommand({ name: "plan", args: "off" }));
    else this.#renderer.line(this.#style.dim("(still in plan mode: say what to change, or /plan off)"));
  }

  /** The run's editor (`/summary edit`): $VISUAL or $EDITOR, given the terminal meanwhile. */
  editText(text: string): Promise<string> {
    return editorOverTerminal(this.#io, this.#rl, this.#keys)(text);
  }

  #onLine(line: string): void {
    const rl = this.#rl;
    if (rl === undefined) return;
    if (this.#approval.waiting) {
      this.#approval.answer(rl, line);
      return;
    }
    if (this.#review.waiting) {
      this.#review.answer(rl, line);
      return;
    }
    // A multi-line prompt recalled from history comes back as one line with markers for its breaks.
    const text = fromHistoryLine(line);
    if (text.endsWith("\\")) {
      this.#lines.push(text.slice(0, -1));
      rl.setPrompt(CONTINUATION_PROMPT);
      rl.prompt();
      return;
    }
    this.#lines.push(text);
    if (this.#pasteTimer !== undefined) clearTimeout(this.#pasteTimer);
    this.#pasteTimer = setTimeout(() => this.#onPrompt(), PASTE_WINDOW_MS);
  }

  /** A whole prompt is typed (its continued and pasted lines joined): send it, or queue it. */
  #onPrompt(): void {
    this.#pasteTimer = undefined;
    // A long paste was shown as a `[pasted N lines #k]` token: the model (and history) get the text.
    const typed = this.#lines.join("\n");
    const text = this.#keys?.expandPastes(typed) ?? typed;
    this.#lines = [];
    this.#history?.add(text);
    if (this.#busy === undefined) {
      void this.#submit(text);
      return;
    }
    if (text.trim() === "") return;
    // Typed ahead while a request runs: it goes next, as its own prompt. It was not echoed, so say what it was.
    this.#queue.push(text);
    this.#rl?.setPrompt(PROMPT);
    this.#renderer.line(
      this.#style.dim(
        `(queued "${shorten(text, 40)}": runs when this request finishes; Ctrl-C cancels both)`,
      ),
    );
  }

  async #submit(text: string): Promise<void> {
    const rl = this.#rl;
    const run = this.#run;
    if (rl === undefined || run === undefined) return;
    rl.setPrompt(PROMPT);
    if (text.trim() === "") {
      rl.prompt();
      return;
    }
    const controller = new AbortController();
    this.#busy = controller;
    this.#output.muted = true;
    try {
      const result = await executeLine(run, text, controller.signal, this.#renderer, this.#style);
      if (result.type === "command" && result.outcome.type === "exit") return this.#settle(EXIT_OK);
      if (result.type === "answered" && run.approvals.mode === "plan" && this.#queue.length === 0)
        await this.#offerToLeavePlan(run);
    } catch (error) {
      this.#renderer.reset();
      this.#renderer.line(
        this.#style.red(`panto: ${error instanceof Error ? error.message : String(error)}`),
      );
    } finally {
      this.#busy = undefined;
      this.#output.muted = false;
      this.#renderer.reset();
    }
    if (this.#closing) return this.#settle(this.#closingCode);
    const next = this.#queue.shift();
    // Keep the cursor where it was in anything typed ahead, which this shows for the first time.
    if (next === undefined) rl.prompt(true);
    else {
      rl.setPrompt(PROMPT);
      this.#renderer.line(`${PROMPT}${next}`);
      void this.#submit(next);
    }
  }

  #onInterrupt(): void {
    const rl = this.#rl;
    if (rl === undefined) return;
    if (this.#approval.waiting) {
      this.#approval.cancel();
      this.#busy?.abort();
      return;
    }
    if (this.#review.waiting) {
      this.#review.cancel();
      return;
    }
    if (this.#busy !== undefined) {
      this.#queue = [];
      this.#busy.abort();
      return;
    }
    if (rl.line !== "" || this.#lines.length > 0) {
      this.#lines = [];
      takeLine(rl);
      rl.setPrompt(PROMPT);
      this.#io.stdout.write("\n");
      rl.prompt();
      return;
    }
    const now = Date.now();
    if (now - this.#lastIdleInterrupt < DOUBLE_INTERRUPT_MS) {
      this.#leavePromptLine();
      this.#settle(EXIT_INTERRUPTED);
      return;
    }
    this.#lastIdleInterrupt = now;
    this.#io.stdout.write(`\n${this.#style.dim("(Ctrl-C again to exit, or Ctrl-D)")}\n`);
    rl.prompt();
  }

  /**
   * The terminal is gone (SIGHUP): as Ctrl-C and Ctrl-D together, an answer in progress is
   * cancelled and kept (prompt and partial answer, marked interrupted), then panto ends with 129
   * once the session is written. Nothing can be shown any more: writes to the dead terminal fail,
   * and those failures must not end the process before the session is closed.
   */
  #onHangUp(): void {
    for (const stream of [this.#io.stdin, this.#io.stdout, this.#io.stderr])
      (stream as NodeJS.EventEmitter).on("error", () => {});
    this.#closingCode = EXIT_HANGUP;
    this.#onClose();
  }

  /** Ctrl-D or the end of input: finish (a running request is cancelled first). */
  #onClose(): void {
    if (this.#closing) return;
    this.#closing = true;
    this.#approval.cancel();
    this.#review.cancel();
    if (this.#busy !== undefined) {
      this.#busy.abort();
      return;
    }
    this.#leavePromptLine();
    this.#settle(this.#closingCode);
  }

  /** Ends the prompt's line on the way out, so the shell's prompt does not land after "> ". */
  #leavePromptLine(): void {
    if (this.#io.stdin.isTTY === true) this.#io.stdout.write("\n");
  }
}
