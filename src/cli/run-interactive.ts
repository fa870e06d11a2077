import { join } from "node:path";
import { createInterface, type Interface } from "node:readline";
import type { ToolCallBlock } from "../core/index.js";
import type { Tool } from "../tools/index.js";
import type { CliOptions } from "./cli-options.js";
import { EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE } from "./exit-status.js";
import { createHistoryWriter, HISTORY_SIZE, loadHistory } from "./history.js";
import { colourEnabled, createStyle, formatToolCall, plural, type Style } from "./render.js";
import { completeSlashCommand, parseSlashCommand } from "./slash-command-table.js";
import { runSlashCommand } from "./slash-commands.js";
import { asUsageError, type RunContext, startRun } from "./start-run.js";
import { TerminalRenderer } from "./terminal-renderer.js";

export interface InteractiveIo {
  cwd: string;
  env: NodeJS.ProcessEnv;
  version: string;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
}

/** Lines that arrive closer together than this are one paste and are sent as one prompt. */
const PASTE_WINDOW_MS = 25;
/** A second Ctrl-C at an empty prompt within this time exits. */
const DOUBLE_INTERRUPT_MS = 2000;
const PROMPT = "> ";
const CONTINUATION_PROMPT = "… ";

/** The interactive session: a readline prompt over the agent. Resolves with the exit status. */
export async function runInteractive(options: CliOptions, io: InteractiveIo): Promise<number> {
  const style = createStyle(colourEnabled(io.stdout, io.env));
  const renderer = new TerminalRenderer(io.stdout, io.stderr, style);
  const repl = new Repl(io, style, renderer, options.allowTools);
  let run: RunContext;
  try {
    run = await startRun({
      options,
      cwd: io.cwd,
      env: io.env,
      hooks: {
        onEvent: (event) => renderer.render(event),
        onWarning: (message) => renderer.warning(message),
        approve: (call, tool) => repl.approve(call, tool),
      },
    });
  } catch (error) {
    const usage = asUsageError(error);
    if (usage === undefined) throw error;
    io.stderr.write(`panto: ${usage.message}\n`);
    return EXIT_USAGE;
  }
  try {
    return await repl.start(run);
  } finally {
    await run.close();
  }
}

/** The read-eval-print loop's state: one request at a time, approvals, multi-line input, Ctrl-C. */
class Repl {
  readonly #io: InteractiveIo;
  readonly #style: Style;
  readonly #renderer: TerminalRenderer;
  readonly #allowAll: boolean;
  readonly #alwaysAllowed = new Set<string>();
  #rl: Interface | undefined;
  #run: RunContext | undefined;
  #busy: AbortController | undefined;
  #pendingApproval: ((answer: string) => void) | undefined;
  #lines: string[] = [];
  /** Prompts typed while a request was running, sent in order afterwards. */
  #queue: string[] = [];
  #pasteTimer: NodeJS.Timeout | undefined;
  #lastIdleInterrupt = 0;
  #settle: (code: number) => void = () => {};
  #closing = false;

  constructor(io: InteractiveIo, style: Style, renderer: TerminalRenderer, allowAll: boolean) {
    this.#io = io;
    this.#style = style;
    this.#renderer = renderer;
    this.#allowAll = allowAll;
  }

  async start(run: RunContext): Promise<number> {
    this.#run = run;
    const historyPath = join(run.pantoHome, "history");
    const history = createHistoryWriter(historyPath, (message) => this.#renderer.warning(message));
    const rl = createInterface({
      input: this.#io.stdin,
      output: this.#io.stdout,
      terminal: this.#io.stdin.isTTY === true,
      history: await loadHistory(historyPath),
      historySize: HISTORY_SIZE,
      removeHistoryDuplicates: true,
      completer: completeSlashCommand,
      prompt: PROMPT,
    });
    this.#rl = rl;
    rl.on("history", (lines) => {
      // Answers to permission questions are not input worth recalling.
      if (this.#pendingApproval !== undefined) lines.shift();
      else history.save(lines);
    });
    rl.on("line", (line) => this.#onLine(line));
    rl.on("SIGINT", () => this.#onInterrupt());
    rl.on("close", () => this.#onClose());
    this.#printBanner(run);
    const code = await new Promise<number>((resolve) => {
      this.#settle = (exitCode) => {
        this.#settle = () => {};
        resolve(exitCode);
      };
      rl.prompt();
    });
    this.#closing = true;
    rl.close();
    await history.flush();
    return code;
  }

  /** Asks before write, edit and bash: y = this once, a = always for this tool this session, n = no. */
  approve(call: ToolCallBlock, tool: Tool): Promise<"allow" | "deny"> {
    const name = tool.definition.name;
    if (this.#allowAll || this.#alwaysAllowed.has(name)) return Promise.resolve("allow");
    const rl = this.#rl;
    if (rl === undefined || this.#busy?.signal.aborted === true) return Promise.resolve("deny");
    this.#renderer.endLine();
    return new Promise((resolve) => {
      this.#pendingApproval = (answer) => {
        this.#pendingApproval = undefined;
        rl.setPrompt(PROMPT);
        const choice = answer.trim().toLowerCase();
        if (choice === "a" || choice === "always") this.#alwaysAllowed.add(name);
        const allowed = ["y", "yes", "a", "always"].includes(choice);
        this.#renderer.line(this.#style.dim(allowed ? "  allowed" : "  denied"));
        resolve(allowed ? "allow" : "deny");
      };
      rl.setPrompt(
        `${this.#style.yellow(`Allow ${formatToolCall(call)}?`)} [y]es once, [a]lways for ${name} this session, [n]o: `,
      );
      rl.prompt();
    });
  }

  #printBanner(run: RunContext): void {
    const context = run.agent.effectiveContext();
    const state = run.resumed
      ? `resumed: ${context.compaction === undefined ? "" : "a compaction block + "}${plural(context.messages.length, "message")} in context`
      : "new";
    const write = (text: string): void => {
      this.#io.stdout.write(`${text}\n`);
    };
    write(`${this.#style.bold(`panto ${this.#io.version}`)} · model ${this.#style.cyan(run.agent.model)}`);
    write(this.#style.dim(`session ${run.session.path} (${state})`));
    write(
      this.#style.dim(
        "/help for commands · \\ at the end of a line continues it · Ctrl-C cancels · Ctrl-D exits",
      ),
    );
  }

  #onLine(line: string): void {
    if (this.#pendingApproval !== undefined) {
      this.#pendingApproval(line);
      return;
    }
    if (line.endsWith("\\")) {
      this.#lines.push(line.slice(0, -1));
      this.#rl?.setPrompt(CONTINUATION_PROMPT);
      this.#rl?.prompt();
      return;
    }
    this.#lines.push(line);
    if (this.#pasteTimer !== undefined) clearTimeout(this.#pasteTimer);
    this.#pasteTimer = setTimeout(() => {
      this.#pasteTimer = undefined;
      const text = this.#lines.join("\n");
      this.#lines = [];
      if (this.#busy === undefined) void this.#submit(text);
      else if (text.trim() !== "") {
        // Typed ahead while a request runs: it goes next, as its own prompt.
        this.#queue.push(text);
        this.#renderer.line(
          this.#style.dim("(queued: runs when the current request finishes; Ctrl-C cancels both)"),
        );
      }
    }, PASTE_WINDOW_MS);
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
    try {
      const exit = await this.#execute(run, text, controller.signal);
      if (exit) return this.#settle(EXIT_OK);
    } catch (error) {
      this.#renderer.reset();
      this.#renderer.line(
        this.#style.red(`panto: ${error instanceof Error ? error.message : String(error)}`),
      );
    } finally {
      this.#busy = undefined;
      this.#renderer.reset();
    }
    if (this.#closing) return this.#settle(EXIT_OK);
    const next = this.#queue.shift();
    if (next === undefined) rl.prompt();
    else {
      rl.setPrompt(PROMPT);
      this.#renderer.line(`${PROMPT}${next}`);
      void this.#submit(next);
    }
  }

  /** Runs a prompt or slash command; returns true when the user asked to leave. */
  async #execute(run: RunContext, text: string, signal: AbortSignal): Promise<boolean> {
    const command = parseSlashCommand(text);
    if (command !== undefined) {
      const result = await runSlashCommand(run, command, signal);
      this.#renderer.reset();
      if (result.output !== "") this.#renderer.line(result.output);
      if (result.error !== undefined) this.#renderer.line(this.#style.red(result.error.message));
      return result.exit;
    }
    const result = await run.agent.prompt(text, { signal });
    this.#renderer.reset();
    if (!result.ok) {
      const cancelled = result.error.code === "aborted";
      this.#renderer.line(
        cancelled
          ? this.#style.yellow("cancelled")
          : this.#style.red(`error (${result.error.code}): ${result.error.message}`),
      );
      if (result.hint !== undefined && !cancelled) this.#renderer.line(this.#style.dim(result.hint));
    }
    return false;
  }

  #onInterrupt(): void {
    const rl = this.#rl;
    if (rl === undefined) return;
    if (this.#pendingApproval !== undefined) {
      this.#io.stdout.write("\n");
      this.#pendingApproval("n");
      this.#busy?.abort();
      return;
    }
    if (this.#busy !== undefined) {
      this.#queue = [];
      this.#busy.abort();
      return;
    }
    if (rl.line !== "" || this.#lines.length > 0) {
      this.#lines = [];
      rl.write(null, { ctrl: true, name: "e" });
      rl.write(null, { ctrl: true, name: "u" });
      rl.setPrompt(PROMPT);
      this.#io.stdout.write("\n");
      rl.prompt();
      return;
    }
    const now = Date.now();
    if (now - this.#lastIdleInterrupt < DOUBLE_INTERRUPT_MS) {
      this.#settle(EXIT_INTERRUPTED);
      return;
    }
    this.#lastIdleInterrupt = now;
    this.#io.stdout.write(`\n${this.#style.dim("(Ctrl-C again to exit, or Ctrl-D)")}\n`);
    rl.prompt();
  }

  /** Ctrl-D or the end of input: finish (a running request is cancelled first). */
  #onClose(): void {
    if (this.#closing) return;
    this.#closing = true;
    this.#pendingApproval?.("n");
    if (this.#busy === undefined) this.#settle(EXIT_OK);
    else this.#busy.abort();
  }
}
