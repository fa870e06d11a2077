import type { SessionUpdate } from "@agentclientprotocol/sdk";
import type { AgentEvent } from "../../agent/index.js";
import { optional, triggerName } from "../../core/index.js";
import type { CommandOutcome } from "../../runtime/command-outcome.js";
import { formatCompactionReport } from "../../runtime/format-text.js";
import { describeOutcome } from "../../runtime/outcome-text.js";
import { composeCompactionSummary } from "../../session/index.js";
import { noticeText, type SessionOutput } from "./update-sender.js";

type EventOf<T extends AgentEvent["type"]> = Extract<AgentEvent, { type: T }>;

/** How the reporter reaches the session: its output, fresh ids, and the usage status to follow a compaction. */
export interface CompactionReporterOptions {
  /** The client advertised `session.compaction`: compactions are timeline entities, else agent text. */
  entities: boolean;
  out: SessionOutput;
  newId: () => string;
  usage: () => Promise<SessionUpdate | undefined>;
}

/** Characters per `compaction_summary_chunk`, cut at paragraph ends where possible. */
const CHUNK_CHARS = 2000;

/**
 * Every compaction as the editor sees it. With `session.compaction`: one `compaction_update`
 * entity per compaction, `in_progress` when its summary request starts, the user-visible summary
 * (the summary and the facts restored into it) as `compaction_summary_chunk`s, then `completed`, or
 * `failed` with the error (`cancelled` for a cancel); a fallback to the active model stays the same
 * entity. Without it, the same outcomes as agent text. A `usage_update` follows each end.
 */
export class CompactionReporter {
  readonly #options: CompactionReporterOptions;
  /** The id of the compaction in progress. */
  #live: string | undefined;
  /** The id shown for each compaction entry of the session file this connection announced. */
  readonly #shown = new Map<string, string>();

  constructor(options: CompactionReporterOptions) {
    this.#options = options;
  }

  /** The id the editor knows a compaction entry by (the entry id for one it has not seen live). */
  idFor(entryId: string): string {
    return this.#shown.get(entryId) ?? entryId;
  }

  started(event: EventOf<"compaction-started">): void {
    const { out, entities } = this.#options;
    const fallback = this.#live !== undefined;
    this.#live ??= this.#options.newId();
    const meta = {
      "panto/compaction": {
        trigger: triggerName(event.trigger),
        model: event.model,
        tokensBefore: event.tokensBefore,
      },
    };
    if (entities)
      out.send({
        sessionUpdate: "compaction_update",
        compactionId: this.#live,
        status: "in_progress",
        _meta: meta,
      });
    else if (event.trigger === "overflow" && !fallback)
      out.send(
        noticeText(
          this.#options.newId(),
          `Context overflow: the request is too large for the model; compacting older turns with ${event.model}, then retrying once.`,
          meta,
        ),
      );
  }

  attemptFailed(event: EventOf<"compaction-attempt-failed">): void {
    if (!this.#options.entities || this.#live === undefined) return;
    const { model, code, message } = event;
    this.#options.out.send({
      sessionUpdate: "compaction_update",
      compactionId: this.#live,
      status: "in_progress",
      _meta: { "panto/attemptFailed": { model, code, message } },
    });
  }

  completed(event: EventOf<"compaction">): void {
    const { out, entities } = this.#options;
    const announced = this.#live !== undefined;
    const id = this.#end();
    this.#shown.set(event.compactionId, id);
    const summary = composeCompactionSummary({
      summary: event.record.summary,
      ...optional("restored", event.record.restored),
    });
    const meta = { "panto/compaction": compactionFigures(event) };
    if (entities) {
      if (!announced)
        out.send({ sessionUpdate: "compaction_update", compactionId: id, status: "in_progress" });
      for (const text of summaryChunks(summary))
        out.send({
          sessionUpdate: "compaction_summary_chunk",
          compactionId: id,
          content: { type: "text", text },
        });
      out.send({ sessionUpdate: "compaction_update", compactionId: id, status: "completed", _meta: meta });
    } else {
      const report = formatCompactionReport(event.record, event.tokensBefore, event.tokensAfter);
      // Said apart from a /compact's report: the user asked for none (compact_when_cold).
      const why =
        event.record.trigger === "cold-cache"
          ? `Prompt cache expired: compacted before the whole prompt is cached again${event.prepared === true ? ", with the summary prepared while you were away" : ""}.\n\n`
          : "";
      out.send(
        noticeText(this.#options.newId(), `${why}${report}\n\nSummary now in effect:\n\n${summary}`, meta),
      );
    }
    out.later(this.#options.usage);
  }

  failed(event: EventOf<"compaction-failed">): void {
    const id = this.#end();
    const cancelled = event.code === "aborted";
    const meta = {
      "panto/compaction": { trigger: triggerName(event.trigger), code: event.code, attempts: event.attempts },
    };
    const outcome: CommandOutcome = {
      type: "compaction-failed",
      code: event.code,
      message: event.message,
      attempts: event.attempts,
    };
    this.#failure(id, cancelled, describeOutcome(outcome).error?.message ?? event.message, meta);
  }

  /** `/compact` refused before any summary request (a PreCompact hook): a compaction that failed at once. */
  refused(outcome: Extract<CommandOutcome, { type: "compaction-failed" }>): void {
    const message = describeOutcome(outcome).error?.message ?? outcome.message;
    this.#failure(this.#options.newId(), outcome.code === "aborted", message, {
      "panto/compaction": { trigger: "manual", code: outcome.code, attempts: [] },
    });
  }

  /** An overflow compaction with nothing older than the turn in flight: said as text (no entity began). */
  skipped(event: EventOf<"compaction-skipped">): void {
    if (event.trigger !== "overflow") return;
    this.#options.out.send(noticeText(this.#options.newId(), `Compaction could not help: ${event.reason}.`));
  }

  /** `/uncompact`: the undone compaction's entity is marked (the protocol has no field for it). */
  undone(outcome: Extract<CommandOutcome, { type: "uncompacted" }>): void {
    if (!this.#options.entities) return;
    const { compaction, tokensBefore, tokensAfter, earlier } = outcome;
    this.#options.out.send({
      sessionUpdate: "compaction_update",
      compactionId: this.idFor(compaction.id),
      status: "completed",
      _meta: {
        "panto/undone": {
          entryId: compaction.id,
          trigger: triggerName(compaction.trigger),
          tokensBefore,
          tokensAfter,
          earlier,
        },
      },
    });
  }

  /** `/summary edit`: a new compaction (trigger "edited") carrying the user's text. */
  edited(entryId: string, summary: string, editedFrom: string | undefined): void {
    if (!this.#options.entities) return;
    const id = this.idFor(entryId);
    this.#shown.set(entryId, id);
    this.#options.out.send({
      sessionUpdate: "compaction_update",
      compactionId: id,
      status: "completed",
      summary: [{ type: "text", text: summary }],
      _meta: { "panto/compaction": { entryId, trigger: "edited", ...optional("editedFrom", editedFrom) } },
    });
  }

  #end(): string {
    const id = this.#live ?? this.#options.newId();
    this.#live = undefined;
    return id;
  }

  #failure(id: string, cancelled: boolean, message: string, meta: Record<string, unknown>): void {
    const { out, entities } = this.#options;
    if (entities)
      out.send({
        sessionUpdate: "compaction_update",
        compactionId: id,
        status: cancelled ? "cancelled" : "failed",
        ...(cancelled ? {} : { error: message }),
        _meta: meta,
      });
    else out.send(noticeText(this.#options.newId(), message, meta));
    out.later(this.#options.usage);
  }
}

/** The figures of a compaction the protocol has no field for, under `_meta["panto/compaction"]`. */
export function compactionFigures(event: EventOf<"compaction">): Record<string, unknown> {
  const { record } = event;
  return {
    entryId: event.compactionId,
    trigger: triggerName(record.trigger),
    model: record.model,
    fellBack: record.fellBack,
    turnsSummarised: record.turnsSummarised,
    turnsKept: record.turnsKept,
    tokensSummarised: record.tokensSummarised,
    tokensKept: record.tokensKept,
    summaryTokens: record.summaryTokens,
    tokensBefore: event.tokensBefore,
    tokensAfter: event.tokensAfter,
    durationMs: event.durationMs,
    restored: record.restored?.length ?? 0,
    ...optional("chunks", record.chunks),
    ...optional("chunking", record.chunking),
    ...optional("instructions", record.instructions),
    ...optional("requestTokens", event.requestTokens),
    ...optional("contextWindow", event.contextWindow),
  };
}

/** The summary cut at paragraph ends into pieces of at most about CHUNK_CHARS (a longer paragraph alone). */
export function summaryChunks(text: string): string[] {
  const chunks: string[] = [];
  let current = "";
  for (const paragraph of text.split(/(?<=\n\n)/)) {
    if (current !== "" && current.length + paragraph.length > CHUNK_CHARS) {
      chunks.push(current);
      current = "";
    }
    current += paragraph;
  }
  if (current !== "" || chunks.length === 0) chunks.push(current);
  return chunks;
}
