import { execFile } from "node:child_process";
import { promisify } from "node:util";

const run = promisify(execFile);

/**
 * A real pseudo-terminal: a detached tmux session on its own server socket, running one command.
 * tmux must be installed (.ci/run installs it); the tests fail, not skip, without it.
 */
function quote(arg: string): string {
  return `'${arg.replace(/'/g, "'\\''")}'`;
}

export class TmuxTerminal {
  readonly #socket: string;

  private constructor(socket: string) {
    this.#socket = socket;
  }

  /** Starts `command` (argv, quoted for sh) in a `columns` x `rows` terminal in `cwd`. */
  static async start(
    argv: readonly string[],
    options: { cwd: string; env: NodeJS.ProcessEnv; columns?: number; rows?: number },
  ): Promise<TmuxTerminal> {
    const socket = `panto-test-${process.pid}-${Math.random().toString(16).slice(2)}`;
    const terminal = new TmuxTerminal(socket);
    const env = Object.entries(options.env).flatMap(([name, value]) =>
      value === undefined ? [] : ["-e", `${name}=${value}`],
    );
    // Run through sh so the exit status is printed on the screen and the pane stays open to be read.
    const script = `${argv.map(quote).join(" ")}; echo "[exit status $?]"; sleep 600`;
    const size = ["-x", String(options.columns ?? 100), "-y", String(options.rows ?? 30)];
    await terminal.#tmux(
      ["new-session", "-d", "-s", "main", ...size],
      ["-c", options.cwd, ...env, "sh", "-c", script],
    );
    return terminal;
  }

  /** Types text literally (no key names). */
  async type(text: string): Promise<void> {
    await this.#tmux(["send-keys", "-t", "main", "-l", text]);
  }

  /** Presses named keys, e.g. "Enter", "Down", "Escape". */
  async press(...keys: string[]): Promise<void> {
    await this.#tmux(["send-keys", "-t", "main", ...keys]);
  }

  /**
   * Pastes text as a terminal does: bracketed (ESC[200~ … ESC[201~) when the program asked for
   * it, line breaks sent as carriage returns.
   */
  async paste(text: string): Promise<void> {
    await this.#tmux(["set-buffer", "-b", "paste", "--", text]);
    await this.#tmux(["paste-buffer", "-p", "-b", "paste", "-t", "main"]);
  }

  /**
   * The visible screen, trailing blank lines dropped. `joined`: rows the terminal wrapped are
   * joined back into the line that was written (what a copy gives); `history`: the scrollback
   * too; `escapes`: colour and style sequences kept.
   */
  async screen(options: { joined?: boolean; history?: boolean; escapes?: boolean } = {}): Promise<string> {
    const flags = [
      ...(options.joined === true ? ["-J"] : []),
      ...(options.history === true ? ["-S", "-"] : []),
      ...(options.escapes === true ? ["-e"] : []),
    ];
    const { stdout } = await this.#tmux(["capture-pane", "-p", ...flags, "-t", "main"]);
    return stdout.replace(/\s+$/, "");
  }

  /** Waits until the screen matches, returning it; fails with the last screen after `timeoutMs`. */
  async waitFor(pattern: RegExp, timeoutMs = 15_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const screen = await this.screen();
      if (pattern.test(screen)) return screen;
      if (Date.now() > deadline) throw new Error(`terminal never showed ${pattern}; last screen:\n${screen}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** Waits for the command to end and returns its exit status. */
  async exitStatus(): Promise<number> {
    const screen = await this.waitFor(/\[exit status \d+\]/);
    return Number(/\[exit status (\d+)\]/.exec(screen)?.[1]);
  }

  async close(): Promise<void> {
    await this.#tmux(["kill-server"]).catch(() => {});
  }

  #tmux(args: readonly string[], tail: readonly string[] = []): Promise<{ stdout: string }> {
    const [command, ...rest] = args;
    return run("tmux", ["-L", this.#socket, "-f", "/dev/null", command ?? "", ...rest, ...tail]);
  }
}
