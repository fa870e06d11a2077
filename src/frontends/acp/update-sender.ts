import type { AgentContext, SessionUpdate } from "@agentclientprotocol/sdk";

/** Where one session's updates go, in the order they are made. */
export interface SessionOutput {
  send(update: SessionUpdate): void;
  /**
   * An update that takes async work to make (a usage status, a file preview): the work starts now
   * and the update is sent in its place in the order; undefined sends nothing.
   */
  later(make: () => Promise<SessionUpdate | undefined>): void;
  /** Resolves once everything sent so far is written: before a response or a request that must follow it. */
  flush(): Promise<void>;
}

/**
 * Sends one session's `session/update` notifications strictly in order, each after the one before
 * it is written. A failed send (the connection closed) is reported and the rest still settle.
 */
export class UpdateSender implements SessionOutput {
  #tail: Promise<void> = Promise.resolve();

  constructor(
    private readonly client: AgentContext,
    readonly sessionId: string,
    private readonly onError: (error: unknown) => void,
  ) {}

  send(update: SessionUpdate): void {
    this.later(async () => update);
  }

  later(make: () => Promise<SessionUpdate | undefined>): void {
    const made = make().catch((error: unknown) => {
      this.onError(error);
      return undefined;
    });
    this.#tail = this.#tail
      .then(async () => {
        const update = await made;
        if (update !== undefined)
          await this.client.notify("session/update", { sessionId: this.sessionId, update });
      })
      .catch(this.onError);
  }

  flush(): Promise<void> {
    return this.#tail;
  }
}

/** An agent text message of its own (a report, not the model's answer), with panto's `_meta` when given. */
export function agentText(messageId: string, text: string, meta?: Record<string, unknown>): SessionUpdate {
  return {
    sessionUpdate: "agent_message_chunk",
    messageId,
    content: { type: "text", text },
    ...(meta === undefined ? {} : { _meta: meta }),
  };
}

/**
 * A notice of panto's own (a compaction, its failure) as agent text set off as a paragraph of its
 * own: a client that joins consecutive agent messages (as many do) would otherwise run it into the
 * answer before or after it. Live reports and `session/load`'s replay both use it.
 */
export function noticeText(messageId: string, text: string, meta?: Record<string, unknown>): SessionUpdate {
  return agentText(messageId, `\n\n${text.trim()}\n\n`, meta);
}
