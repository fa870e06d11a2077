import {
  type CompactionOutcome,
  type CompactionPreview,
  runCompaction,
  type SummariseFn,
  withRestoredFacts,
} from "../compaction/index.js";
import type {
  ApiKind,
  AssistantMessage,
  CompactionTrigger,
  EffectiveContext,
  LearnedWindow,
  ModelClient,
  StreamEvent,
  SummaryRequestUsage,
  ToolCallBlock,
  ToolResultMessage,
} from "../core/index.js";
import { optional, PantoError } from "../core/index.js";
import type { AgentEvent } from "./agent-events.js";
import type { AgentOptions } from "./agent-options.js";
import { assistantText } from "./assistant-text.js";
import {
  contextForSummariser,
  type EditOutcome,
  editSummary,
  pinNote,
  previewNow,
  summariserPrompt,
  type UncompactOutcome,
  uncompactLatest,
  unpinNote,
} from "./compaction-controls.js";
import { failureHint } from "./failure-hint.js";
import { compactionBlockedByHook, promptBlockedByHook } from "./hook-points.js";
import { MessageTooLargeError, messageTooLarge } from "./message-too-large.js";
import { PartialAnswer } from "./partial-answer.js";
import { requestSize } from "./reported-size.js";
import { runToolCalls } from "./run-tool-calls.js";
import { summaryRequester } from "./summary-requester.js";
import { truncationWarning } from "./truncation-check.js";
import {
  effectiveKeepBudget,
  estimateOverheadTokens,
  estimateRequestTokens,
  inFlightEstimate,
  inFlightMisfit,
  learnFromOverflow,
  onlyTurnInFlight,
  predictProviderTokens,
  retryMisfit,
  summaryRequestLimit,
} from "./window-guard.js";

export type { AgentOptions, ApprovalVerdict } from "./agent-options.js";

/**
 * `stopped: "max-requests"`: the prompt's `maxRequests` model answers were used up while the model
 * still wanted tools; `text` is the last answer's text, and the turn stays in the context.
 */
export type PromptResult =
  | { ok: true; text: string; stopped?: "max-requests" }
  /** `keptInterrupted`: an interrupted turn (prompt, partial answer, tool results) stays in the context. */
  | { ok: false; error: PantoError; hint?: string; keptInterrupted?: boolean };

export interface PromptOptions {
  signal?: AbortSignal;
  /** Model requests this prompt may make (an overflow's retry of the same request not counted). */
  maxRequests?: number;
}

/** Said when the model ends its turn with neither text nor a tool call, so silence is not mistaken for an answer. */
const EMPTY_ANSWER: AgentEvent = {
  type: "warning",
  code: "empty_answer",
  message: "the model returned an empty answer (no text and no tool call)",
};

/** Tool rounds one prompt may run before the agent stops and reports it (a runaway loop guard). */
const MAX_TOOL_ROUNDS = 200;

/**
 * The agent loop: send, stream, run tools, persist every message as it happens, and recover from a
 * context overflow by compacting once and retrying the failed request once (spec rule 6).
 */
export class Agent {
  readonly #options: AgentOptions;
  #modelId: string;
  #client: ModelClient;
  /** Usage of the summary requests of the compaction running now, recorded with it. */
  #summaryUsage: SummaryRequestUsage[] = [];
  /** Whether the prompt running now kept an interrupted answer (so the turn stays in the context). */
  #keptInterrupted = false;
  /** A model switched to with setModel and not yet written to the session. */
  #modelToRecord: string | undefined;
  /** Whether the silent-truncation warning was given (once per session). */
  #truncationWarned = false;
  /** Serialises compactions: a manual /compact never races overflow recovery. */
  #compactionLock: Promise<unknown> = Promise.resolve();

  constructor(options: AgentOptions) {
    this.#options = options;
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

  /**
   * The context window learned for the active model (from an overflow error's numbers, remembered in
   * the session across resume), or undefined when none was learned; never configured. With
   * `contextTokens()` it gives the share of the known window the next request fills.
   */
  learnedWindow(): LearnedWindow | undefined {
    return this.#options.session.learnedWindows()[this.#modelId];
  }

  #reportedTokens(): number {
    const { session } = this.#options;
    const window = session.learnedWindows()[this.#modelId];
    const copies = session.activeCompaction()?.keptMessages ?? 0;
    return requestSize(this.effectiveContext(), this.#overheadTokens(), {
      calibrated: true,
      copiedMessages: copies,
      window,
    }).tokens;
  }

  /**
   * Runs one user prompt to completion. Provider failures come back as `{ ok: false }`, never thrown.
   * A turn that fails for good leaves the context as it was before it, except an interrupted turn
   * whose tools already ran: the model must keep seeing what it changed.
   */
  async prompt(text: string, options: PromptOptions = {}): Promise<PromptResult> {
    const { session } = this.#options;
    const blocked = await promptBlockedByHook(this.#options.hooks, text);
    if (blocked !== undefined) return { ok: false, error: blocked };
    await this.recordModel({ evenWithoutFile: true });
    await session.appendMessage({ role: "user", content: [{ type: "text", text }] });
    this.#keptInterrupted = false;
    const turn = await this.#runTurn(options.signal, options.maxRequests);
    try {
      if (turn.answer === undefined) throw turn.thrown;
      await this.#options.hooks?.stop(turn.answer.text);
      return { ok: true, ...turn.answer };
    } catch (thrown) {
      const error = toPantoError(thrown, options.signal);
      const kept = error.code === "aborted" && (turn.ranTools || this.#keptInterrupted);
      if (!kept) await session.markLastTurnFailed(error.code, error.message);
      const hint = kept ? INTERRUPTED_KEPT : failureHint(error, session.path);
      return {
        ok: false,
        error,
        ...optional("hint", hint),
        ...(kept ? { keptInterrupted: true } : {}),
      };
    }
  }

  /** Manual compaction (`/compact [instructions]`), with the same model selection and fallback as recovery. */
  compact(instructions?: string, options: { signal?: AbortSignal } = {}): Promise<CompactionOutcome> {
    return this.#compactExclusively("manual", instructions, options.signal);
  }

  /** `/compact --preview [instructions]`: the plan a manual compaction would follow now. No model call, nothing written. */
  previewCompaction(instructions?: string): CompactionPreview {
    const { compactionModel } = this.#options;
    return previewNow(
      {
        ...this.#controlDeps(),
        keepVerbatimTokens: this.#options.keepVerbatimTokens,
        compactionPrompt: this.#options.compactionPrompt,
        activeModel: this.#modelId,
        ...optional("compactionModel", compactionModel),
      },
      instructions === undefined || instructions.trim() === "" ? undefined : instructions,
    );
  }

  /** What the compaction controls need: the session, the event sink, and honest sizes. */
  #controlDeps() {
    const { session, onEvent } = this.#options;
    return { session, onEvent, requestTokens: () => this.#reportedTokens() };
  }

  /** `/uncompact`: undoes the compaction in effect (after any compaction still running). */
  uncompact(): Promise<UncompactOutcome> {
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
    return this.#exclusively(() => editSummary(this.#controlDeps(), text));
  }

  /**
   * The prompt's requests and tool rounds, until the model answers without tool calls. Never throws:
   * a failure comes back with whether tools had run (work the model must not forget on an interrupt).
   */
  async #runTurn(signal: AbortSignal | undefined, maxRequests = Number.POSITIVE_INFINITY): Promise<TurnEnd> {
    let lastText = "";
    let ranTools = false;
    try {
      for (let round = 0; round < MAX_TOOL_ROUNDS; round++) {
        if (round >= maxRequests) return { ranTools, answer: { text: lastText, stopped: "max-requests" } };
        // Each request of the turn earns its own single retry after an overflow.
        const message = await this.#sendRecoveringOnce(signal);
        this.#warnIfTruncated(message);
        await this.#options.session.appendMessage(message);
        this.#options.onEvent({ type: "assistant-message", message });
        const calls = message.content.filter((block): block is ToolCallBlock => block.type === "tool-call");
        lastText = assistantText(message);
        if (calls.length === 0) {
          if (lastText.trim() === "") this.#options.onEvent(EMPTY_ANSWER);
          return { ranTools, answer: { text: lastText } };
        }
        await this.#runTools(calls, signal);
        ranTools = true;
        if (signal?.aborted) throw new PantoError("aborted", "interrupted while tools were running");
      }
      throw new PantoError("other", `stopped after ${MAX_TOOL_ROUNDS} tool rounds in one prompt`);
    } catch (thrown) {
      return { ranTools, thrown };
    }
  }

  /** Runs one round of tool calls, then writes and reports their results. */
  async #runTools(calls: ToolCallBlock[], signal: AbortSignal | undefined): Promise<void> {
    const { session, onEvent } = this.#options;
    const results = await runToolCalls(calls, this.#options, signal, (call) =>
      onEvent({ type: "tool-started", call }),
    );
    const toolMessage: ToolResultMessage = { role: "tool", content: results };
    await session.appendMessage(toolMessage);
    // Reported only once written, so a result a script has seen survives a crash.
    for (const result of results) onEvent({ type: "tool-result", result });
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
      await this.#recoverFromOverflow(overflow, signal);
      this.#options.onEvent({ type: "overflow-retry" });
    }
    try {
      return await this.#send(signal);
    } catch (thrown) {
      throw await this.#afterFailedRetry(await this.#overflowOrThrow(thrown, signal));
    }
  }

  /** A failed request's error: learned from (its window), rethrown unless it is an overflow. */
  async #overflowOrThrow(thrown: unknown, signal: AbortSignal | undefined): Promise<PantoError> {
    const error = toPantoError(thrown, signal);
    await this.#learnWindow(error);
    if (error.code !== "context_overflow") throw error;
    return error;
  }

  async #send(signal: AbortSignal | undefined): Promise<AssistantMessage> {
    const { onEvent, systemPrompt, tools, maxOutputTokens } = this.#options;
    const context = this.effectiveContext();
    const request = {
      systemPrompt,
      context,
      tools: tools.map((tool) => tool.definition),
      ...optional("maxOutputTokens", maxOutputTokens),
    };
    onEvent({ type: "request-started", model: this.#modelId });
    const partial = new PartialAnswer();
    const client = this.#client;
    try {
      return await client.stream(request, {
        ...optional("signal", signal),
        onEvent: (event) => {
          partial.see(event);
          forwardStreamEvent(event, onEvent);
        },
      });
    } catch (thrown) {
      if (signal?.aborted && !partial.empty) await this.#keepPartial(partial, client, context);
      throw thrown;
    }
  }

  /**
   * Ctrl-C during an answer: what streamed so far stays in the session and the context as an
   * assistant message marked aborted, and its tool calls (which never ran) get results saying so.
   */
  async #keepPartial(partial: PartialAnswer, client: ModelClient, context: EffectiveContext): Promise<void> {
    const { session } = this.#options;
    const message = partial.message({
      provider: client.provider,
      model: client.model,
      api: knownApi(context, client) ?? "openai-chat",
    });
    await session.appendMessage(message);
    const results = partial.notRunResults();
    if (results.length > 0) await session.appendMessage({ role: "tool", content: results });
    this.#keptInterrupted = true;
  }

  /** Compacts with the turn in flight kept verbatim; throws the overflow when compaction cannot help. */
  async #recoverFromOverflow(overflow: PantoError, signal: AbortSignal | undefined): Promise<void> {
    const misfit = inFlightMisfit(this.#windowCheck());
    if (misfit !== undefined) throw misfit;
    const outcome = await this.#compactExclusively("overflow", undefined, signal, overflow);
    if (outcome.type === "compacted") {
      const retry = retryMisfit(this.#windowCheck());
      if (retry !== undefined) throw retry;
      return;
    }
    if (outcome.type === "nothing-to-summarise") {
      if (onlyTurnInFlight(this.effectiveContext())) throw this.#messageTooLarge("untouched", overflow);
      throw new PantoError(
        "context_overflow",
        `${overflow.message} (compaction cannot help: ${outcome.reason})`,
        {
          cause: overflow,
        },
      );
    }
    if (outcome.error.code === "aborted") throw outcome.error;
    throw new PantoError(
      "context_overflow",
      `${overflow.message} (compaction failed: ${outcome.error.message})`,
      {
        cause: overflow,
      },
    );
  }

  /** Warns once per session when a response's prompt size says the server cut the request. */
  #warnIfTruncated(message: AssistantMessage): void {
    if (this.#truncationWarned) return;
    const estimated = estimateRequestTokens(this.#overheadTokens(), this.effectiveContext());
    const warning = truncationWarning(message, estimated);
    if (warning === undefined) return;
    this.#truncationWarned = true;
    this.#options.onEvent({ type: "warning", code: "prompt_truncated", message: warning });
  }

  /**
   * The retry after an overflow compaction overflowed too. When the turn in flight is what does not
   * fit (the learned window says so, or nothing but it was left beside the summary), the compaction
   * did nothing useful: it is undone, and the error says the message itself is too large.
   */
  async #afterFailedRetry(error: PantoError): Promise<PantoError> {
    const check = this.#windowCheck();
    const misfit = inFlightMisfit(check);
    if (!(misfit instanceof MessageTooLargeError) && !onlyTurnInFlight(check.context)) return error;
    if (this.#options.session.activeCompaction()?.trigger !== "overflow") return error;
    await this.#exclusively(() => uncompactLatest(this.#controlDeps()));
    return this.#messageTooLarge("compaction-undone", error);
  }

  #messageTooLarge(conversation: "untouched" | "compaction-undone", cause: PantoError): MessageTooLargeError {
    const { window, overheadTokens, context } = this.#windowCheck();
    const size = (tokens: number) => (window === undefined ? tokens : predictProviderTokens(window, tokens));
    const contextWindow = window?.contextWindow ?? cause.contextWindow;
    return messageTooLarge(
      {
        model: this.#modelId,
        messageTokens: size(inFlightEstimate(context)),
        overheadTokens: size(overheadTokens),
        ...optional("contextWindow", contextWindow),
        conversation,
      },
      cause,
    );
  }

  /** Records the window an overflow error stated, for this model, in the session. */
  async #learnWindow(error: PantoError): Promise<void> {
    const estimated = estimateRequestTokens(this.#overheadTokens(), this.effectiveContext());
    const window = learnFromOverflow(error, estimated);
    if (window !== undefined) await this.#options.session.appendWindow(this.#modelId, window);
  }

  #overheadTokens(): number {
    const { systemPrompt, tools } = this.#options;
    return estimateOverheadTokens(
      systemPrompt,
      tools.map((tool) => tool.definition),
    );
  }

  /** What the window checks need: the active model, its learned window, the overhead, the context. */
  #windowCheck() {
    return {
      model: this.#modelId,
      window: this.#options.session.learnedWindows()[this.#modelId],
      overheadTokens: this.#overheadTokens(),
      context: this.effectiveContext(),
    };
  }

  /** The keep budget and summary-request limit the learned windows allow (DESIGN: never configured). */
  #windowLimits(trigger: CompactionTrigger): { budgetTokens: number; summaryLimitTokens?: number } {
    const windows = this.#options.session.learnedWindows();
    // A manual /compact keeps the configured budget; only recovery must make its one retry fit.
    const budgetTokens =
      trigger === "manual"
        ? this.#options.keepVerbatimTokens
        : effectiveKeepBudget(
            this.#options.keepVerbatimTokens,
            windows[this.#modelId],
            this.#overheadTokens(),
            this.effectiveContext(),
          );
    const summaryLimitTokens = summaryRequestLimit(windows[this.#options.compactionModel ?? this.#modelId]);
    return summaryLimitTokens === undefined ? { budgetTokens } : { budgetTokens, summaryLimitTokens };
  }

  #compactExclusively(
    trigger: CompactionTrigger,
    instructions: string | undefined,
    signal: AbortSignal | undefined,
    overflow?: PantoError,
  ): Promise<CompactionOutcome> {
    return this.#exclusively(() => this.#compact(trigger, instructions, signal, overflow));
  }

  /** Runs `operation` once every compaction (or other change to the compaction state) before it is done. */
  #exclusively<T>(operation: () => Promise<T>): Promise<T> {
    const run = this.#compactionLock.then(operation);
    this.#compactionLock = run.catch(() => undefined);
    return run;
  }

  async #compact(
    trigger: CompactionTrigger,
    instructions: string | undefined,
    signal: AbortSignal | undefined,
    overflow?: PantoError,
  ): Promise<CompactionOutcome> {
    const { session, onEvent } = this.#options;
    // The provider's own count of the rejected request when it stated one.
    const tokensBefore = overflow?.requestTokens ?? this.#reportedTokens();
    const { hooks, keepVerbatimTokens } = this.#options;
    const blocked = await compactionBlockedByHook(hooks, {
      trigger,
      instructions,
      tokensBefore,
      keepVerbatimTokens,
    });
    if (blocked !== undefined) return blocked;
    const started = performance.now();
    this.#summaryUsage = [];
    const outcome = await runCompaction({
      context: contextForSummariser(session),
      trigger,
      lastTurnInFlight: trigger === "overflow",
      ...this.#windowLimits(trigger),
      systemPrompt: summariserPrompt(session, this.#options.compactionPrompt),
      ...(instructions === undefined || instructions.trim() === "" ? {} : { instructions }),
      activeModel: this.#modelId,
      ...(this.#options.compactionModel === undefined
        ? {}
        : { compactionModel: this.#options.compactionModel }),
      summarise: this.#summarise,
      ...optional("signal", signal),
      onEvent: (event) => {
        if (event.type === "compaction-attempt")
          onEvent({ type: "compaction-started", trigger, model: event.model, tokensBefore });
        else
          onEvent({
            type: "compaction-attempt-failed",
            trigger,
            model: event.model,
            code: event.error.code,
            message: event.error.message,
          });
      },
    });
    const durationMs = Math.round(performance.now() - started);
    if (outcome.type === "compacted") {
      const checked =
        this.#options.restoreFacts === false
          ? outcome.record
          : withRestoredFacts(outcome.record, outcome.plan.summarise);
      const record = this.#summaryUsage.length === 0 ? checked : { ...checked, usage: this.#summaryUsage };
      await session.appendCompaction(record, outcome.kept);
      const tokensAfter = this.#reportedTokens();
      onEvent({
        type: "compaction",
        record,
        tokensBefore,
        tokensAfter,
        durationMs,
        ...(overflow?.requestTokens === undefined ? {} : { requestTokens: overflow.requestTokens }),
        ...(overflow?.contextWindow === undefined ? {} : { contextWindow: overflow.contextWindow }),
      });
      await hooks?.postCompact(record, tokensBefore, tokensAfter);
      return { ...outcome, record };
    }
    if (outcome.type === "nothing-to-summarise") {
      onEvent({ type: "compaction-skipped", trigger, reason: outcome.reason });
      return outcome;
    }
    const attempts = outcome.attempts.map((a) => ({
      model: a.model,
      code: a.error.code,
      message: a.error.message,
    }));
    // A cancel is the user's choice, not a failure worth keeping on record.
    if (outcome.error.code !== "aborted") await session.appendCompactionFailed(trigger, attempts);
    onEvent({
      type: "compaction-failed",
      trigger,
      code: outcome.error.code,
      message: outcome.error.message,
      attempts,
      durationMs,
    });
    return outcome;
  }

  /** The model call handed to the compaction orchestrator: one request, no tools, the transcript as the user prompt. */
  readonly #summarise: SummariseFn = summaryRequester(
    (modelId) => (modelId === this.#modelId ? this.#client : this.#options.createClient(modelId)),
    (characters) => this.#options.onEvent({ type: "compaction-progress", characters }),
    (modelId, usage) => this.#summaryUsage.push({ model: modelId, ...usage }),
  );
}

/**
 * How a prompt's turn ended: its answer, or what stopped it; either way whether its tools had run
 * (their results are written, so an interrupted turn keeps them in the context).
 */
type TurnEnd =
  | { ranTools: boolean; answer: { text: string; stopped?: "max-requests" }; thrown?: undefined }
  | { ranTools: boolean; answer?: undefined; thrown: unknown };

/** Said after Ctrl-C when the prompt and the partial answer stay in the context. */
const INTERRUPTED_KEPT =
  "Interrupted: your prompt and what was answered so far stay in the context, marked interrupted; tool calls that had not run are recorded as not run.";

/** The wire protocol of the latest answer from this client's provider and model in the context. */
function knownApi(context: EffectiveContext, client: ModelClient): ApiKind | undefined {
  const answer = context.messages.findLast(
    (message): message is AssistantMessage =>
      message.role === "assistant" && message.provider === client.provider && message.model === client.model,
  );
  return answer?.api;
}

function forwardStreamEvent(event: StreamEvent, onEvent: (event: AgentEvent) => void): void {
  switch (event.type) {
    case "text-delta":
    case "thinking-delta":
      onEvent(event);
      return;
    case "tool-call-end":
      onEvent({ type: "tool-call", call: event.call });
      return;
    case "retry-wait":
      onEvent(event);
      return;
    case "tool-call-start":
      return;
  }
}

function toPantoError(thrown: unknown, signal: AbortSignal | undefined): PantoError {
  if (thrown instanceof PantoError) return thrown;
  if (signal?.aborted) return new PantoError("aborted", "interrupted", { cause: thrown });
  const message = thrown instanceof Error ? thrown.message : String(thrown);
  return new PantoError("other", message, { cause: thrown });
}
