import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { AcpRenderer } from "../../src/frontends/acp/acp-renderer.js";
import type { SessionOutput } from "../../src/frontends/acp/update-sender.js";

/** A clearing as the editor sees it: one notice, then a usage_update carrying `_meta["panto/clearing"]` (or, with no window known, a notice carrying it). */
class Collected implements SessionOutput {
  readonly updates: SessionUpdate[] = [];
  #tail: Promise<void> = Promise.resolve();
  send(update: SessionUpdate): void {
    this.later(async () => update);
  }
  later(make: () => Promise<SessionUpdate | undefined>): void {
    const made = make();
    this.#tail = this.#tail.then(async () => {
      const update = await made;
      if (update !== undefined) this.updates.push(update);
    });
  }
  flush(): Promise<void> {
    return this.#tail;
  }
}

function renderer(out: Collected, notes: string[], usage: SessionUpdate | undefined) {
  return new AcpRenderer({
    out,
    cwd: "/tmp",
    compactionEntities: true,
    newId: () => "id",
    usage: async () => usage,
    warn: (message) => notes.push(`warn: ${message}`),
    note: (message) => notes.push(message),
    activeSummary: () => undefined,
    configChanged: () => {},
    todos: async () => [],
  });
}

const cleared = {
  type: "context-cleared" as const,
  clearingId: "c1",
  reason: "trigger" as const,
  toolCallIds: ["toolu_1", "toolu_2"],
  tokensBefore: 120_000,
  tokensAfter: 70_000,
};

describe("ACP and clearing", () => {
  it("sends a usage_update with the new size and panto-prefixed _meta, and one notice", async () => {
    const out = new Collected();
    const notes: string[] = [];
    const usage: SessionUpdate = {
      sessionUpdate: "usage_update",
      used: 70_000,
      size: 200_000,
      _meta: { "panto/usage": { usedFrom: "usage" } },
    };
    renderer(out, notes, usage).render(cleared);
    await out.flush();
    expect(out.updates).toEqual([
      {
        ...usage,
        _meta: {
          "panto/usage": { usedFrom: "usage" },
          "panto/clearing": {
            event: "cleared",
            clearingId: "c1",
            toolResults: 2,
            ids: ["toolu_1", "toolu_2"],
            tokensBefore: 120_000,
            tokensAfter: 70_000,
            reason: "trigger",
          },
        },
      },
    ]);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toContain("cleared 2 old tool results from the context");
  });

  it("with no window known, sends the clearing as the notice session/load shows, with the same _meta; an undo only through its command", async () => {
    const out = new Collected();
    const notes: string[] = [];
    const render = renderer(out, notes, undefined);
    render.render({ ...cleared, reason: "cold-cache" });
    render.render({
      type: "clearing-undone",
      clearingId: "c1",
      toolCallIds: ["toolu_1"],
      tokensBefore: 70_000,
      tokensAfter: 120_000,
    });
    await out.flush();
    expect(out.updates).toHaveLength(1);
    const [notice] = out.updates as [SessionUpdate & { content?: { text?: string } }];
    expect(notice.sessionUpdate).toBe("agent_message_chunk");
    expect(notice.content?.text).toContain("cleared 2 old tool results from the context");
    expect(notice._meta?.["panto/clearing"]).toEqual({
      event: "cleared",
      clearingId: "c1",
      toolResults: 2,
      ids: ["toolu_1", "toolu_2"],
      tokensBefore: 120_000,
      tokensAfter: 70_000,
      reason: "cold_cache",
    });
    expect(notes).toHaveLength(1);
  });
});
