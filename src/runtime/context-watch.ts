import { contextUsage } from "./context-usage.js";
import { ContextWarnings } from "./context-warnings.js";
import type { RunContext } from "./run-context.js";
import type { RunEvent } from "./run-events.js";

export interface ContextWatchOptions {
  /** Config `context_warnings`: the fractions of a known window to warn at. */
  warnings: readonly number[];
}

/**
 * Watches how full the context is after each change to it (an answer written, a compaction, an
 * undo, an edited summary, a rewind, and whatever calls `changed`: a clearing) and, with a known
 * window, reports `context-warning` events (see ContextWarnings). The checks run one after another,
 * in the order of the changes; `settled` waits for them.
 */
export class ContextWatch {
  readonly #run: () => RunContext;
  readonly #warnings: ContextWarnings;
  #checks: Promise<void> = Promise.resolve();
  #closed = false;

  constructor(run: () => RunContext, options: ContextWatchOptions) {
    this.#run = run;
    this.#warnings = new ContextWarnings(options.warnings);
  }

  /** The run's event listener: the events after which the context is not what it was. */
  onEvent(event: RunEvent): void {
    switch (event.type) {
      case "assistant-message":
      case "compaction":
      case "compaction-undone":
      case "summary-edited":
        this.changed();
        return;
      case "command":
        if (event.outcome.type === "rewound") this.changed();
        return;
      default:
        return;
    }
  }

  /**
   * The context changed in a way the events above do not show (a clearing of old tool results):
   * warnings whose level it dropped below are armed again, and any new one is given.
   */
  changed(): void {
    if (this.#closed) return;
    this.#checks = this.#checks.then(() => this.#check()).catch(() => undefined);
  }

  /** Resolves once every check asked for so far is done (its warning reported). */
  settled(): Promise<void> {
    return this.#checks;
  }

  /** No check starts after this; waits for the one running. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#checks;
  }

  async #check(): Promise<void> {
    const run = this.#run();
    const { size, window } = await contextUsage(run, run.agent.learnedWindow()?.contextWindow);
    if (window === undefined || this.#closed) return;
    const level = this.#warnings.check(size.tokens, window.tokens);
    if (level === undefined) return;
    run.events.emit({
      type: "context-warning",
      level,
      used: size.tokens,
      size: window.tokens,
      sizeFrom: window.source,
    });
  }
}
