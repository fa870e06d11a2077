import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { replayHistory } from "../../src/frontends/acp/replay-history.js";
import { type FuzzTarget, invariant } from "../engine/fuzz-target.js";
import { loadAcpSchemas } from "../support/acp-schema.js";
import { SESSION_WORDS } from "../support/session-words.js";

const folder = mkdtempSync(join(tmpdir(), "panto-fuzz-acp-replay-"));
const path = join(folder, "session.jsonl");
const schemas = await loadAcpSchemas();

/**
 * `session/load` in the editor protocol: a session file (any bytes: hand-edited, cut by a crash,
 * written by another version) replayed as `session/update`s. Invariants: the replay never throws;
 * every update is valid ACP v1 by the SDK's own schema (what a client built on it accepts); every
 * `tool_call_update` names a call announced before it, and no call is announced twice while open;
 * every call announced is finished by the end (completed or failed: an editor would otherwise show
 * it running forever); every update survives a JSON round trip unchanged (the wire).
 */
export const target: FuzzTarget = {
  description:
    "session file -> replayHistory (session/load) -> updates valid by the ACP schema, every call closed",
  dictionary: [
    ...SESSION_WORDS,
    '"path":"/etc/passwd"',
    '"path":"src/a.ts"',
    '"offset":"x"',
    '"command":"ls"',
    '"old_string":"a","new_string":"b"',
    '"name":"edit"',
    '"name":"bash"',
    '"name":"grep"',
    '"trigger":"overflow"',
    '"keptBy":"x"',
  ],
  maxLength: 16_384,
  async run(input) {
    writeFileSync(path, input);
    const updates: SessionUpdate[] = [];
    await replayHistory(path, {
      cwd: folder,
      compactionEntities: input.length % 2 === 0,
      send: (update) => updates.push(update),
    });
    const open = new Set<string>();
    const finished = new Set<string>();
    for (const [index, update] of updates.entries()) {
      const checked = schemas.sessionUpdate.safeParse(update);
      invariant(
        checked.success,
        `update ${index} is not valid ACP: ${checked.success ? "" : checked.error.message}`,
      );
      const wire = JSON.stringify(update);
      invariant(wire === JSON.stringify(JSON.parse(wire)), `update ${index} does not survive JSON`);
      if (update.sessionUpdate === "tool_call") {
        invariant(!open.has(update.toolCallId), `call ${update.toolCallId} announced twice while open`);
        open.add(update.toolCallId);
      }
      if (update.sessionUpdate === "tool_call_update") {
        invariant(open.has(update.toolCallId), `update for call ${update.toolCallId} never announced`);
        if (update.status === "completed" || update.status === "failed") {
          open.delete(update.toolCallId);
          finished.add(update.toolCallId);
        }
      }
    }
    invariant(open.size === 0, `calls left running after the replay: ${[...open].join(", ")}`);
  },
};
