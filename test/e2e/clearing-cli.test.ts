import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { estimateTokens } from "../../src/compaction/index.js";
import { parseSessionLine, replayEntries, type SessionEntry } from "../../src/session/index.js";
import { closeAfterEach } from "../support/close-after-each.js";
import { compactionCliProject } from "../support/compaction-cli-project.js";
import { recordedAnHourEarlier } from "../support/session-times.js";
import { jsonEvents } from "./run-cli.js";

/**
 * Tool-result clearing end to end: the built CLI as a subprocess against the fake Anthropic server,
 * reading real files with the real `read` tool, one process per prompt (so every decision is made
 * from what the session file records): the JSON event, a cold cache judged from recorded times,
 * `/unclear`, and the context a resumed run sends matching a replay of the file.
 */
const TIMEOUT = 120_000;
const MODEL = "anthropic/claude-active";
const closeAfter = closeAfterEach();

const fileText = (name: string) =>
  Array.from({ length: 200 }, (_, line) => `${name} line ${line}: ${"lorem ipsum ".repeat(3)}`).join("\n");
const oneOutput = estimateTokens(fileText("a"));
const usage = { input: 6_000, output: 10 };
const read = (id: string, path: string) => ({
  type: "tool-calls" as const,
  calls: [{ id, name: "read", arguments: { path } }],
  usage,
});

async function entries(path: string): Promise<SessionEntry[]> {
  const lines = (await readFile(path, "utf8")).split("\n").slice(1).filter(Boolean);
  return lines.flatMap((line) => {
    const parsed = parseSessionLine(line);
    return parsed.kind === "entry" ? [parsed.entry] : [];
  });
}

async function project(clearing: Record<string, unknown>) {
  const t = await compactionCliProject(MODEL, closeAfter, {
    clearing: { keep_recent: 1, min_reclaim_tokens: Math.round(oneOutput * 1.5), ...clearing },
  });
  for (const name of ["a", "b", "c", "d"]) await writeFile(join(t.project, `${name}.txt`), fileText(name));
  return t;
}

describe("clearing through the CLI", () => {
  it(
    "emits context_cleared in --json, sends stubs from then on across processes, and /unclear brings the outputs back",
    async () => {
      const t = await project({ trigger_tokens: 1_000 });
      t.server.enqueue(read("toolu_a", "a.txt"), read("toolu_b", "b.txt"), {
        type: "text",
        text: "one",
        usage,
      });
      const first = await t.run("read a and b");
      expect(first.code, first.stderr).toBe(0);

      t.server.enqueue(read("toolu_c", "c.txt"), { type: "text", text: "two", usage });
      const second = await t.run("read c", ["--json"]);
      expect(second.code, second.stderr).toBe(0);
      const events = jsonEvents(second.stdout);
      const cleared = events.filter((event) => event.type === "context_cleared");
      expect(cleared).toHaveLength(1);
      expect(cleared[0]).toMatchObject({
        type: "context_cleared",
        tool_results: 2,
        ids: ["toolu_a", "toolu_b"],
      });
      expect(cleared[0]?.tokens_after).toBeLessThan(cleared[0]?.tokens_before as number);
      // It came before the request it shrank: between c's result and the answer.
      const order = events.map((event) => event.type);
      expect(order.indexOf("context_cleared")).toBeGreaterThan(order.indexOf("tool_result"));
      expect(order.indexOf("context_cleared")).toBeLessThan(order.lastIndexOf("assistant_message"));

      // A new process resumes the file: what it sends is what a replay of the file gives.
      t.server.enqueue({ type: "text", text: "three", usage });
      const third = await t.run("anything else?");
      expect(third.code, third.stderr).toBe(0);
      const sent = JSON.stringify(t.server.requests.at(-1)?.body);
      expect(sent).toContain('cleared to save context: output of read \\"a.txt\\"');
      expect(sent).toContain('recall {\\"tool_result\\": \\"toolu_a\\"} reads it back');
      expect(sent).not.toContain("a line 17:");
      expect(sent).toContain("c line 17:");
      const replayed = replayEntries(await entries(t.session)).context;
      const stubbed = replayed.messages.flatMap((message) =>
        message.role === "tool"
          ? message.content.filter((block) => JSON.stringify(block).includes("cleared to save"))
          : [],
      );
      expect(stubbed.map((block) => block.toolCallId)).toEqual(["toolu_a", "toolu_b"]);

      const undo = await t.run("/unclear");
      expect(undo.code, undo.stderr).toBe(0);
      expect(undo.stdout).toContain("2 tool outputs whole in the context again");
      t.server.enqueue({ type: "text", text: "four", usage });
      const fourth = await t.run("and now?");
      expect(fourth.code, fourth.stderr).toBe(0);
      const after = JSON.stringify(t.server.requests.at(-1)?.body);
      // Whole again, and clearing paused (the context has not grown by min_reclaim_tokens since).
      expect(after).toContain("a line 17:");
      expect(after).toContain("b line 17:");
      expect(after).not.toContain("cleared to save context");
      const file = await entries(t.session);
      expect(file.filter((entry) => entry.type === "unclear")).toHaveLength(1);
      expect(file.filter((entry) => entry.type === "clearing")).toHaveLength(1);
      const again = await t.run("/unclear");
      expect(again.stdout).toContain("Nothing to take back");
    },
    TIMEOUT,
  );

  it(
    "clears at the next request once the cache has gone cold by the recorded times, and not while it is warm",
    async () => {
      // A trigger never reached: only a cold cache may clear.
      const t = await project({ trigger_tokens: 10_000_000 });
      t.server.enqueue(read("toolu_a", "a.txt"), read("toolu_b", "b.txt"), {
        type: "text",
        text: "one",
        usage,
      });
      expect((await t.run("read a and b")).code).toBe(0);
      t.server.enqueue(read("toolu_c", "c.txt"), { type: "text", text: "two", usage });
      expect((await t.run("read c")).code).toBe(0);
      // Warm: nothing cleared.
      t.server.enqueue({ type: "text", text: "three", usage });
      const warm = await t.run("still there?", ["--json"]);
      expect(jsonEvents(warm.stdout).some((event) => event.type === "context_cleared")).toBe(false);
      expect(JSON.stringify(t.server.requests.at(-1)?.body)).toContain("a line 17:");

      // Every recorded time moved an hour back: the cache (300 s) has expired.
      await recordedAnHourEarlier(t.session);
      t.server.enqueue({ type: "text", text: "four", usage });
      const cold = await t.run("back after lunch", ["--json"]);
      expect(cold.code, cold.stderr).toBe(0);
      const cleared = jsonEvents(cold.stdout).filter((event) => event.type === "context_cleared");
      expect(cleared).toMatchObject([{ tool_results: 2, ids: ["toolu_a", "toolu_b"], reason: "cold_cache" }]);
      const sent = JSON.stringify(t.server.requests.at(-1)?.body);
      expect(sent).not.toContain("a line 17:");
      expect(sent).toContain("c line 17:");
    },
    TIMEOUT,
  );
});
