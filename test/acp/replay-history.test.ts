import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { replayHistory } from "../../src/frontends/acp/replay-history.js";

const TS = "2026-01-01T00:00:00.000Z";

function assistant(id: string, calls: string[]) {
  return {
    type: "message",
    id,
    ts: TS,
    message: {
      role: "assistant",
      content: calls.map((callId) => ({
        type: "tool-call",
        id: callId,
        name: "bash",
        arguments: { command: "ls" },
      })),
      provider: "anthropic",
      api: "anthropic-messages",
      model: "m",
      stopReason: "tool-use",
    },
  };
}

function result(id: string, callId: string) {
  return {
    type: "message",
    id,
    ts: TS,
    message: {
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: callId,
          toolName: "bash",
          content: [{ type: "text", text: "out" }],
          isError: false,
        },
      ],
    },
  };
}

async function replay(entries: object[]): Promise<SessionUpdate[]> {
  const folder = await mkdtemp(join(tmpdir(), "panto-acp-replay-"));
  const path = join(folder, "session.jsonl");
  const header = { type: "session", version: 1, id: "s", created: TS, cwd: folder };
  await writeFile(path, `${[header, ...entries].map((line) => JSON.stringify(line)).join("\n")}\n`);
  const updates: SessionUpdate[] = [];
  await replayHistory(path, {
    cwd: folder,
    compactionEntities: true,
    send: (update) => updates.push(update),
  });
  return updates;
}

function statuses(updates: SessionUpdate[]): string[] {
  return updates.flatMap((update) =>
    update.sessionUpdate === "tool_call" || update.sessionUpdate === "tool_call_update"
      ? [`${update.sessionUpdate} ${update.toolCallId} ${update.status ?? ""}`]
      : [],
  );
}

describe("replayHistory (session/load)", () => {
  it("ends a call the file never answered as failed, so the editor does not show it running (a fuzz find)", async () => {
    const updates = await replay([assistant("a1", ["t1", "t2"]), result("r1", "t1")]);
    expect(statuses(updates)).toEqual([
      "tool_call t1 pending",
      "tool_call t2 pending",
      "tool_call_update t1 completed",
      "tool_call_update t2 failed",
    ]);
    expect(JSON.stringify(updates.at(-1))).toContain("No result was recorded for this call.");
  });

  it("ends a call still running before a second call with the same id is announced (a fuzz find)", async () => {
    const updates = await replay([assistant("a1", ["t1", "t1"]), result("r1", "t1")]);
    expect(statuses(updates)).toEqual([
      "tool_call t1 pending",
      "tool_call_update t1 failed",
      "tool_call t1 pending",
      "tool_call_update t1 completed",
    ]);
  });
});
