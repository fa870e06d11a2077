import {
  type CompactionOutcome,
  type CompactionPreview,
  DEFAULT_CLEARING,
  estimateContextTokens,
  estimateTokens,
} from "../compaction/index.js";
import type {
  AssistantMessage,
  CompactionTrigger,
  EffectiveContext,
  LearnedWindow,
  ModelClient,
  UserMessage,
} from "../core/index.js";
import { optional, type PantoError } from "../core/index.js";
import type { AgentOptions, PromptContent, PromptOptions, PromptResult } from "./agent-options.js";
import { clearedTokens } from "./cleared-tokens.js";
import {
  type EditOutcome,
  editSummary,
  pinNote,
  previewNow,
  type UncompactOutcome,
  uncompactLatest,
  unpinNote,
} from "./compaction-controls.js";
import {
  CompactionPreparation,
  type PendingCompaction,
  type PreparedCompaction,
} from "./compaction-preparation.js";
import {
  type ClearingDeps,
  clearIfDue,
  latestRequest,
  planNow,
  reclaimedShown,
  sizeChangeSinceUsage,
  type UnclearOutcome,
  unclearLatest,
} from "./context-clearing.js";
import { failureHint, INTERRUPTED_KEPT_HINT } from "./failure-hint.js";
import { promptBlockedByHook } from "./hook-points.js";
import {
  afterFailedRetry,
  learnWindow,
  type RecoveryDeps,
  recoverFromOverflow,
} from "./overflow-recovery.js";
import { latestAcceptedRequest, overheadUpperBound } from "./provider-figures.js";
import { type RequestSize, type RequestSizeOptions, requestScale, requestSize } from "./reported-size.js";
import { preparedStillFits, runAgentCompaction } from "./run-agent-compaction.js";
import { runTurn } from "./run-turn.js";
import { sendRequest } from "./send-request.js";
import { toPantoError } from "./to-panto-error.js";
import { truncationWarning } from "./truncation-check.js";
import { estimateOverheadTokens, type FitCheck } from "./window-guard.js";

export type {
  AgentOptions,
  ApprovalVerdict,
  PromptContent,
  PromptOptions,
  PromptResult,
} from "./agent-options.js";

/**
 * The agent loop: send, stream, run tools, persist every message as it happens, and recover from a
 * context overflow by compacting once and retrying the failed request once (spec rule 6).
 */
export class Agent {
  #options: AgentOptions;
  #modelId: string;
  #client: ModelClient;
  /** Whether the prompt running now kept an interrupted answer (so the turn stays in the context). */
  #keptInterrupted = false;
  /** A model switched to with setModel and not yet written to the session. */
  #modelToRecord: string | undefined;
  /** Whether the silent-truncation warning was given (once per session). */
  #truncationWarned = false;
  /** Serialises compactions: a manual /compact never races overflow recovery. */
  #compactionLock: Promise<unknown> = Promise.resolve();
  /** How tools are confined in this run, written to the session with the first prompt. */
  #sandboxToRecord: AgentOptions["sandboxRecord"];
  /** The time of the request after which the cache went cold and a compaction was run for it (`compact_when_cold`). */
  #coldCompactedAfter: number | undefined;
  /** The compaction summary written ahead (config `prepare_compaction_at`), if any. */
  readonly #preparation = new CompactionPreparation();

  constructor(options: AgentOptions) {
    this.#options = options;
    this.#sandboxToRecord = options.sandboxRecord;
    this.#modelId = options.model;
    this.#client = options.createClient(options.model);
  }

  get model(): string {
    return this.#modelId;
  }

  /** Switches the active model; creates the client now so a bad id or missing key fails here. */
  setModel(modelId: string): void {
    this.#client = this.#options.createClient(modelId);
    this.#modelId = modelId;
    this.#modelToRecord = modelId;
  }

  /**
   * The system prompt of the requests sent from now on (plan mode's section switched); the tool
   * definitions and everything else stay as they are.
   */
  setSystemPrompt(systemPrompt: string): void {
    this.#options = { ...this.#options, systemPrompt };
  }

  /**
   * Writes the model chosen with setModel to the session (a model entry, restored on resume). A
   * session without a file yet gets it with its first prompt instead, so a switch alone creates none.
   */
  async recordModel(options: { evenWithoutFile?: boolean } = {}): Promise<void> {
    const model = this.#modelToRecord;
    const { session } = this.#options;
    if (model === undefined || (!session.hasFile && options.evenWithoutFile !== true)) return;
    this.#modelToRecord = undefined;
    await session.appendModel(model);
  }

  effectiveContext(): EffectiveContext {
    return this.#options.session.effectiveContext();
  }

  /**
   * Size in tokens of the next request (system prompt, tool definitions, effective context) as the
   * provider counts it: from the latest usage where there is usage, else the calibrated estimate.
   */
  contextTokens(): number {
    return this.#reportedTokens();
  }

  /** `contextTokens()` with whether the provider's numbers went into it (see `RequestSize`). */
  contextSize(): RequestSize {
    const size = requestSize(this.effectiveContext(), this.#overheadTokens(), this.#sizeOptions());
    // The latest usage predates clearings (or unclears) written since: take out what they changed.
    const change = sizeChangeSinceUsage(this.#options.session.activeEntries());
    if (change === 0 || size.source !== "usage") return size;
    const { countedTokens } = size;
    return {
      ...size,
      tokens: Math.max(0, size.tokens - change),
      ...(countedTokens === undefined ? {} : { countedTokens: Math.max(0, countedTokens - change) }),
    };
  }

  /**
   * The tokens the clearings in force keep out of the context (what their results would add back),
   * by the sizes recorded when they were made.
   */
  clearedTokens(): number {
    return clearedTokens(this.#options.session.activeEntries());
  }

  /**
   * The tokens, as the provider counts them, that the clearing due before the next request takes
   * out of the context, judged from the session now (0 when none is due). A clearing due now is
   * due then too: the turn just ended only adds results that may be cleared, and a cache gone cold
   * meanwhile clears at least as much. What tells whether a compaction is really near.
   */
  async dueClearingReclaim(): Promise<number> {
    const deps = this.#clearingDeps();
    const plan = await planNow(deps, { turnEnded: true });
    return plan.type === "clear" ? reclaimedShown(plan.reclaimTokens, deps) : 0;
  }

  /** `/unclear`: takes back the latest clearing (after any compaction still running). */
  unclear(): Promise<UnclearOutcome> {
    return this.#exclusively(() => unclearLatest(this.#clearingDeps()));
  }

  /** What clearing needs of the agent; the settings default to clearing off. */
  #clearingDeps(): ClearingDeps {
    const { session, onEvent, contextWindow, clearing } = this.#options;
    return {
      session,
      onEvent,
      settings: clearing ?? { ...DEFAULT_CLEARING, enabled: false },
      window: async () =>
        this.learnedWindow()?.contextWindow ?? (await contextWindow?.(this.#modelId).catch(() => undefined)),
      requestTokens: () => this.#reportedTokens(),
      estimatedTokens: () => this.#overheadTokens() + estimateContextTokens(this.effectiveContext()),
    };
  }

  /**
   * The context window learned for the active model (from an overflow error's numbers, remembered in
   * the session across resume), or undefined when none was learned; never configured. With
   * `contextTokens()` it gives the share of the known window the next request fills.
   */
  learnedWindow(): LearnedWindow | undefined {
    return this.#options.session.learnedWindows()[this.#modelId];
  }

  #reportedTokens(): number {
    return this.contextSize().tokens;
  }

  /** How the sizes shown are calibrated: the kept copies passed over, the compaction's own scale. */
  #sizeOptions(): RequestSizeOptions {
    const { session } = this.#options;
    const compaction = session.activeCompaction();
    return {
      copiedMessages: compaction?.keptMessages ?? 0,
      scale: compaction?.sizeScale,
      window: session.learnedWindows()[this.#modelId],
    };
  }

  /**
   * Runs one user prompt to completion. Provider failures come back as `{ ok: false }`, never thrown.
   * A turn that fails for good leaves the context as it was before it, except an interrupted turn
   * whose tools already ran: the model must keep seeing what it changed.
   */
  async prompt(input: string | PromptContent, options: PromptOptions = {}): Promise<PromptResult> {
    const { session } = this.#options;
    const content: UserMessage["content"] =
      typeof input === "string" ? [{ type: "text", text: input }] : structuredClone([...input]);
    const text = content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n");
    const blocked = await promptBlockedByHook(this.#options.hooks, text);
    if (blocked !== undefined) return { ok: false, error: blocked, blocked: true };
    await this.recordModel({ evenWithoutFile: true });
    if (this.#sandboxToRecord !== undefined) {
      await session.appendSandbox(this.#sandboxToRecord);
      this.#sandboxToRecord = undefined;
    }
    const notes = this.#options.notes?.() ?? [];
    if (notes.length > 0) content.push({ type: "text", text: notes.join("\n") });
    await session.appendMessage({ role: "user", content });
    this.#keptInterrupted = false;
    const { signal } = options;
    const turn = await runTurn(this.#options, () => this.#request(signal), signal, options.maxRequests);
    try {
      if (turn.answer === undefined) throw turn.thrown;
      await this.#options.hooks?.stop(turn.answer.text);
      return { ok: true, ...turn.answer };
    } catch (thrown) {
      const error = toPantoError(thrown, signal);
      const kept = error.code === "aborted" && (turn.ranTools || this.#keptInterrupted);
      if (!kept) await session.markLastTurnFailed(error.code, error.message);
      const hint = kept ? INTERRUPTED_KEPT_HINT : failureHint(error, session.path);
      return { ok: false, error, ...optional("hint", hint), ...(kept ? { keptInterrupted: true } : {}) };
    }
  }

  /**
   * Manual compaction (`/compact [--force] [instructions]`), with the same model selection and
   * fallback as recovery; `force` summarises all but the latest turn even when everything fits.
   */
  compact(
    instructions?: string,
    options: { signal?: AbortSignal; force?: boolean } = {},
  ): Promise<CompactionOutcome> {
    return this.#compactExclusively("manual", instructions, options.signal, {
      force: options.force === true,
    });
  }

  /** `/compact --preview [--force] [instructions]`: the plan a manual compaction would follow now. No model call, nothing written. */
  previewCompaction(instructions?: string, options: { force?: boolean } = {}): CompactionPreview {
    const { compactionModel } = this.#options;
    return previewNow(
      {
        ...this.#controlDeps(),
        keepVerbatimTokens: this.#options.keepVerbatimTokens,
        compactionPrompt: this.#options.compactionPrompt,
        activeModel: this.#modelId,
        force: options.force === true,
        ...optional("compactionModel", compactionModel),
      },
      instructions === undefined || instructions.trim() === "" ? undefined : instructions,
    );
  }

  /**
   * What the compaction controls need: the session, the event sink (silent for a caller's own
   * controls with `controlEvents: false`), and honest sizes.
   */
  #controlDeps(report = this.#options.controlEvents !== false) {
    const { session, onEvent } = this.#options;
    return { session, onEvent: report ? onEvent : () => {}, requestTokens: () => this.#reportedTokens() };
  }

  /**
   * Writes, in the background, the summary the next compaction would ask for (config
   * `prepare_compaction_at`, once a turn ends near the window): the next overflow, or a `/compact`
   * of the same turns, applies it instead of a summary request. Nothing is written to the session
   * until then; a `compaction-prepared` event says it is ready. Resolves with it (undefined when
   * there was nothing to summarise, it failed, or it was dropped), or at once with undefined when
   * one is already held or being written. Never rejects.
   */
  async prepareCompaction(options: { coldCache?: boolean } = {}): Promise<PreparedCompaction | undefined> {
    // After any compaction running now, so the snapshot is of the context it leaves.
    await this.#compactionLock;
    const started = performance.now();
    // Loaded when first needed: a one-shot run never prepares.
    const { writePreparedSummary } = await import("./write-prepared-summary.js");
    const write = writePreparedSummary(this.#options, {
      model: this.#modelId,
      client: this.#client,
      overheadTokens: this.#overheadTokens(),
    });
    const done = this.#preparation.start(this.#options.session, write, (held) =>
      preparedStillFits(this.#options, held.prepared.turns, this.#modelId, this.#overheadTokens()),
    );
    const prepared = await done;
    // `/summary` says when it is applied: the next prompt, for one written because the cache went cold.
    if (prepared !== undefined && options.coldCache === true) prepared.coldCache = true;
    if (prepared !== undefined) {
      const { summary } = prepared.prepared;
      this.#options.onEvent({
        type: "compaction-prepared",
        model: summary.model,
        turnsSummarised: prepared.prepared.turns,
        tokensSummarised: prepared.tokensSummarised,
        summaryTokens: estimateTokens(summary.summary),
        durationMs: Math.round(performance.now() - started),
        ...(options.coldCache === true ? { coldCache: true as const } : {}),
      });
    }
    return prepared;
  }

  /** The compaction summary prepared ahead, being written or ready (`/summary`), if any. */
  pendingCompaction(): PendingCompaction | undefined {
    return this.#preparation.pending(this.#options.session);
  }

  /**
   * `/summary discard` (`byUser`), or a rewind: drops the summary prepared ahead; true when there
   * was one. The user's discard while the cache is cold also stands for this pause's compaction
   * (`compact_when_cold`): the next prompt does not ask for another summary in its turn.
   */
  discardPreparedCompaction(options: { byUser?: boolean } = {}): boolean {
    const dropped = this.#preparation.discard();
    const pause = dropped && options.byUser === true ? this.#cachePause() : undefined;
    if (pause !== undefined && pause.msLeft < 0) this.#coldCompactedAfter = pause.at;
    return dropped;
  }

  /** Cancels a summary being written ahead and waits for it, before the session closes. */
  closePreparation(): Promise<void> {
    return this.#preparation.close();
  }

  /** `/uncompact`: undoes the compaction in effect (after any compaction still running). */
  uncompact(): Promise<UncompactOutcome> {
    this.#preparation.discard();
    return this.#exclusively(() => uncompactLatest(this.#controlDeps()));
  }

  /** `/pin TEXT`: returns the note's number. */
  pin(text: string): Promise<number> {
    return this.#exclusively(() => pinNote(this.#controlDeps(), text));
  }

  /** `/unpin N`: the removed note's text, or undefined when there is no note N. */
  unpin(number: number): Promise<string | undefined> {
    return this.#exclusively(() => unpinNote(this.#controlDeps(), number));
  }

  /** `/summary edit`: stores `text` as the summary in effect (a compaction entry with trigger "edited"). */
  editSummary(text: string): Promise<EditOutcome> {
    this.#preparation.discard();
    return this.#exclusively(() => editSummary(this.#controlDeps(), text));
  }

  /** The turn's next request; each request of the turn earns its own single retry after an overflow. */
  async #request(signal: AbortSignal | undefined): Promise<AssistantMessage> {
    // First, so that clearing weighs what the compaction keeps.
    await this.#compactIfCold(signal);
    // Old tool results leave the context before a request, never between an overflow and its retry.
    await this.#exclusively(() => clearIfDue(this.#clearingDeps()));
    const serverWindow = this.#serverWindow();
    const message = await this.#sendRecoveringOnce(signal);
    await this.#warnIfTruncated(message, serverWindow);
    return message;
  }

  /**
   * Config `compact_when_cold`. Once the prompt cache has gone cold (no request in this session for
   * longer than `clearing.cache_ttl_seconds`, judged from the recorded request times as clearing
   * judges it), the next request writes its whole prompt to the cache again, at 1.25x input, and
   * every request after it reads it back at 0.1x: when the context is past the configured fraction
   * of a known window, compacting first makes that write, and the reads, of the smaller context.
   * The summary prepared ahead (`prepareWhileCold`, or `prepare_compaction_at`) is applied when it
   * covers the turns (no wait); otherwise the user waits for a summary request, as for `/compact`.
   * Once per cold pause; overflows stay v1's.
   */
  async #compactIfCold(signal: AbortSignal | undefined): Promise<void> {
    const at = await this.#coldCompactionDue();
    if (at === undefined) return;
    // Until a request is answered, the latest recorded one stays this old: a turn that fails and is
    // asked again (or a summary that failed) must not start another compaction for the same pause.
    this.#coldCompactedAfter = at;
    await this.#compactExclusively("cold-cache", undefined, signal);
  }

  /**
   * `compact_when_cold` while the user is away (the run calls it once the cache has had time to go
   * cold after a turn): writes the summary that the next request's compaction will apply, so that
   * request does not wait for it. Undefined when no such compaction is due, or as `prepareCompaction`.
   */
  async prepareWhileCold(): Promise<PreparedCompaction | undefined> {
    const at = await this.#coldCompactionDue();
    if (at === undefined) return undefined;
    const prepared = await this.prepareCompaction({ coldCache: true });
    // Failed, or nothing to summarise (none held either): this pause's one try is spent, and the
    // next prompt goes out without asking the summariser again in its turn.
    if (prepared === undefined && this.#preparation.pending(this.#options.session) === undefined)
      this.#coldCompactedAfter = at;
    return prepared;
  }

  /**
   * Milliseconds until the prompt cache goes cold by the session's recorded request times (negative
   * once it has), with `compact_when_cold` set and a request recorded; else undefined. What a run
   * that opens a session waits before `prepareWhileCold`.
   */
  msUntilCold(): number | undefined {
    return this.#cachePause()?.msLeft;
  }

  /**
   * With `compact_when_cold` set and a request recorded: that request's time, and the milliseconds
   * left until the prompt cache goes cold after it (`clearing.cache_ttl_seconds`; negative once it has).
   */
  #cachePause(): { at: number; msLeft: number } | undefined {
    if (this.#options.compactWhenCold === undefined) return undefined;
    const { at } = latestRequest(this.#options.session.activeEntries());
    if (at === undefined) return undefined;
    return { at, msLeft: at + this.#clearingDeps().settings.cacheTtlSeconds * 1000 - Date.now() };
  }

  /**
   * When a compaction is due for a cold cache (see `#compactIfCold`): the time of the latest
   * request, after which it went cold; undefined when it is not.
   */
  async #coldCompactionDue(): Promise<number | undefined> {
    const fraction = this.#options.compactWhenCold;
    const pause = this.#cachePause();
    if (fraction === undefined || pause === undefined || pause.msLeft >= 0) return undefined;
    if (pause.at === this.#coldCompactedAfter) return undefined;
    const window = await this.#clearingDeps().window();
    return window !== undefined && this.#reportedTokens() >= fraction * window ? pause.at : undefined;
  }

  /**
   * The context size a self-hosted server reports (the kind that may cut a prompt silently), asked
   * while the request runs so the answer costs no wait; the client asks the server only once.
   */
  #serverWindow(): Promise<number | undefined> | undefined {
    if (this.#truncationWarned || this.#client.selfHosted !== true) return undefined;
    return this.#client.contextWindow?.().catch(() => undefined);
  }

  /**
   * The spec's flow for one request: send it; if the provider rejects it as too large, compact
   * (the turn in flight kept verbatim) and send it once more. A second overflow is final.
   */
  async #sendRecoveringOnce(signal: AbortSignal | undefined): Promise<AssistantMessage> {
    try {
      return await this.#send(signal);
    } catch (thrown) {
      const overflow = await this.#overflowOrThrow(thrown, signal);
      await recoverFromOverflow(this.#recovery(signal), overflow);
      this.#options.onEvent({ type: "overflow-retry" });
    }
    try {
      return await this.#send(signal);
    } catch (thrown) {
      throw await afterFailedRetry(this.#recovery(signal), await this.#overflowOrThrow(thrown, signal));
    }
  }

  /** A failed request's error: learned from (its window), rethrown unless it is an overflow. */
  async #overflowOrThrow(thrown: unknown, signal: AbortSignal | undefined): Promise<PantoError> {
    const error = toPantoError(thrown, signal);
    await learnWindow(this.#recovery(signal), error);
    if (error.code !== "context_overflow") throw error;
    return error;
  }

  #send(signal: AbortSignal | undefined): Promise<AssistantMessage> {
    return sendRequest({
      options: this.#options,
      client: this.#client,
      model: this.#modelId,
      signal,
      onPartialKept: () => {
        this.#keptInterrupted = true;
      },
    });
  }

  /**
   * Warns once per session when the provider's own numbers say the server cut the request: the
   * reported prompt at exactly the context size the server reports, or not grown past an earlier
   * one on the same context (see truncationWarning). Never from panto's estimate.
   */
  async #warnIfTruncated(
    message: AssistantMessage,
    reportedWindow: Promise<number | undefined> | undefined,
  ): Promise<void> {
    if (this.#truncationWarned || message.usage === undefined) return;
    const { session } = this.#options;
    const serverWindow = await reportedWindow;
    const accepted = latestAcceptedRequest(session.activeEntries(), this.#modelId);
    const warning = truncationWarning(message, { accepted, serverWindow });
    if (warning === undefined) return;
    this.#truncationWarned = true;
    this.#options.onEvent({ type: "warning", code: "prompt_truncated", message: warning });
  }

  #overheadTokens(): number {
    const { systemPrompt, tools } = this.#options;
    return estimateOverheadTokens(
      systemPrompt,
      tools.map((tool) => tool.definition),
    );
  }

  /** What the window checks need: the active model, its learned window, the overhead, the context. */
  #fitCheck(): FitCheck {
    return {
      model: this.#modelId,
      window: this.#options.session.learnedWindows()[this.#modelId],
      overheadTokens: this.#overheadTokens(),
      overheadBound: overheadUpperBound(
        this.#options.systemPrompt,
        this.#options.tools.map((tool) => tool.definition),
      ),
      context: this.effectiveContext(),
    };
  }

  /** What overflow recovery needs of the agent, for a request sent with `signal`. */
  #recovery(signal: AbortSignal | undefined): RecoveryDeps {
    return {
      session: this.#options.session,
      fitCheck: () => this.#fitCheck(),
      compact: (overflow) => this.#compactExclusively("overflow", undefined, signal, { overflow }),
      uncompact: () => this.#exclusively(() => uncompactLatest(this.#controlDeps(true))),
    };
  }

  /** Runs one compaction after any still running (see `runAgentCompaction`). */
  #compactExclusively(
    trigger: CompactionTrigger,
    instructions: string | undefined,
    signal: AbortSignal | undefined,
    extra: { overflow?: PantoError; force?: boolean } = {},
  ): Promise<CompactionOutcome> {
    const compaction = {
      options: this.#options,
      trigger,
      instructions,
      signal,
      overflow: extra.overflow,
      force: extra.force === true,
      activeModel: this.#modelId,
      clientFor: (modelId: string) =>
        modelId === this.#modelId ? this.#client : this.#options.createClient(modelId),
      overheadTokens: this.#overheadTokens(),
      reportedTokens: () => this.#reportedTokens(),
      sizeScale: () => requestScale(this.effectiveContext(), this.#overheadTokens(), this.#sizeOptions()),
      takePrepared: (accept: Parameters<CompactionPreparation["take"]>[1]) =>
        this.#preparation.take(this.#options.session, accept, signal),
    };
    return this.#exclusively(() => runAgentCompaction(compaction));
  }

  /** Runs `operation` once every compaction (or other change to the compaction state) before it is done. */
  #exclusively<T>(operation: () => Promise<T>): Promise<T> {
    const run = this.#compactionLock.then(operation);
    this.#compactionLock = run.catch(() => undefined);
    return run;
  }
}
