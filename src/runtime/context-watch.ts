import { contextUsage } from "./context-usage.js";
import { ContextWarnings } from "./context-warnings.js";
import type { ContextWatcher, RunContext } from "./run-context.js";
import type { RunEvent } from "./run-events.js";

export interface ContextWatchOptions {
  /** Config `context_warnings`: the fractions of a known window to warn at. */
  warnings: readonly number[];
  /**
   * Config `prepare_compaction_at`: a turn that ends with the context past this fraction of a
   * known window, even after the clearing of old tool results due before the next request, has the
   * next compaction's summary written in the background. Undefined: never;
   * so in a one-shot run (print, JSON), which exits before it could be used.
   */
  prepareAt?: number | undefined;
  /**
   * With config `compact_when_cold`, the prompt cache's lifetime in ms (`clearing.cache_ttl_seconds`):
   * this long after a turn ends with no request since, the compaction the next request will run
   * has its summary written (`Agent.prepareWhileCold`), so that request does not wait for it.
   * Undefined: never; so in a one-shot run.
   */
  coldAfterMs?: number | undefined;
}

/**
 * Watches how full the context is after each change to it (an answer written, a compaction, an
 * undo, an edited summary, a clearing of old tool results or its undo, a rewind) and, with a known
 * window, reports `context-warning` events (see ContextWarnings), and at the end of a turn past
 * `prepareAt` starts preparing the next compaction (`Agent.prepareCompaction`). The checks run one
 * after another, in the order of the changes; `settled` waits for them (not for a preparation).
 */
export class ContextWatch implements ContextWatcher {
  readonly #run: () => RunContext;
  readonly #warnings: ContextWarnings;
  readonly #prepareAt: number | undefined;
  readonly #coldAfterMs: number | undefined;
  /** Fires once the cache has had time to go cold after the latest turn (`coldAfterMs`). */
  #coldTimer: NodeJS.Timeout | undefined;
  #checks: Promise<void> = Promise.resolve();
  #closed = false;

  constructor(run: () => RunContext, options: ContextWatchOptions) {
    this.#run = run;
    this.#warnings = new ContextWarnings(options.warnings);
    this.#prepareAt = options.prepareAt;
    this.#coldAfterMs = options.coldAfterMs;
  }

  /** The run's event listener: the events after which the context is not what it was. */
  onEvent(event: RunEvent): void {
    switch (event.type) {
      case "assistant-message": {
        const turnEnded = !event.message.content.some((block) => block.type === "tool-call");
        this.#armColdTimer(turnEnded);
        this.changed({ turnEnded });
        return;
      }
      case "compaction":
      case "compaction-undone":
      case "summary-edited":
      case "context-cleared":
      case "clearing-undone":
        this.changed();
        return;
      case "command":
        if (event.outcome.type === "rewound") this.changed({ historyRewritten: true });
        return;
      default:
        return;
    }
  }

  /**
   * The context changed. Called by the events above, and by whatever changes it without one:
   * warnings whose level it dropped below are armed again and any new
   * one is given; `historyRewritten` (the messages already sent are not what they were) drops a
   * prepared compaction at once (one the session no longer holds is dropped when applied anyway);
   * `turnEnded` may start preparing one.
   */
  changed(options: { historyRewritten?: boolean; turnEnded?: boolean } = {}): void {
    if (this.#closed) return;
    if (options.historyRewritten === true) this.#run().agent.discardPreparedCompaction();
    const turnEnded = options.turnEnded === true;
    this.#checks = this.#checks.then(() => this.#check(turnEnded)).catch(() => undefined);
  }

  /** Resolves once every check asked for so far is done (its warning reported). */
  settled(): Promise<void> {
    return this.#checks;
  }

  /**
   * A session was opened (the run's first, a resume, `/clear`): its cache may already be cold, or go
   * cold before any turn ends, so the timer waits for what is left of the cache's lifetime by the
   * session's recorded request times (not at all when it has run out), not for a whole one.
   */
  opened(): void {
    const until = this.#run().agent.msUntilCold();
    if (until !== undefined) this.#armColdTimer(true, Math.max(-1000, until));
  }

  /** No check starts after this; waits for the one running. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#armColdTimer(false);
    await this.#checks;
  }

  /**
   * Every answer cancels the timer; one that ends a turn starts it again. When it fires (a second
   * past the cache's lifetime, the timer not keeping the process alive), the agent judges from the
   * session whether the cache went cold and a compaction is due, and writes its summary if so.
   */
  #armColdTimer(turnEnded: boolean, delayMs = this.#coldAfterMs): void {
    clearTimeout(this.#coldTimer);
    this.#coldTimer = undefined;
    const after = delayMs;
    if (!turnEnded || after === undefined || this.#coldAfterMs === undefined || this.#closed) return;
    this.#coldTimer = setTimeout(() => {
      this.#coldTimer = undefined;
      if (!this.#closed)
        void this.#run()
          .agent.prepareWhileCold()
          .catch(() => undefined);
    }, after + 1000);
    this.#coldTimer.unref();
  }

  async #check(turnEnded: boolean): Promise<void> {
    const run = this.#run();
    const { size, window } = await contextUsage(run, run.agent.learnedWindow()?.contextWindow);
    if (window === undefined || this.#closed) return;
    // A warning rests on what the provider counted (none without its usage); the rest is estimated.
    const level = this.#warnings.check(size.tokens, window.tokens, size.countedTokens ?? 0);
    if (level !== undefined)
      run.events.emit({
        type: "context-warning",
        level,
        used: size.tokens,
        size: window.tokens,
        sizeFrom: window.source,
      });
    const prepareAt = this.#prepareAt;
    if (!turnEnded || prepareAt === undefined || size.tokens < prepareAt * window.tokens) return;
    // Old tool results the next request clears anyway may bring the context back under the line:
    // then no compaction is near, and a summary written now would be paid for and never used.
    const cleared = await run.agent.dueClearingReclaim().catch(() => 0);
    if (this.#closed || size.tokens - cleared < prepareAt * window.tokens) return;
    // In the background: the user reads and types meanwhile. It never rejects.
    void run.agent.prepareCompaction().catch(() => undefined);
  }
}
