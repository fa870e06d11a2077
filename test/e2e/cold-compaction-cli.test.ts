import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { closeAfterEach } from "../support/close-after-each.js";
import { compactionCliProject } from "../support/compaction-cli-project.js";
import { recordedAnHourEarlier } from "../support/session-times.js";
import { jsonEvents } from "./run-cli.js";

/**
 * Config `compact_when_cold` end to end: the built CLI as a subprocess against the fake Anthropic
 * server, one process per prompt, so whether the cache has gone cold is judged from the times the
 * session file records (moved back an hour here, as a long pause would leave them).
 */
const TIMEOUT = 120_000;
const MODEL = "anthropic/claude-active";
const closeAfter = closeAfterEach();
/** The provider's count of each request: past 0.3 of the configured 10,000-token window. */
const usage = { input: 6_000, output: 10 };

async function project(config: Record<string, unknown>) {
  return compactionCliProject(MODEL, closeAfter, {
    models: { [MODEL]: { context_window: 10_000 } },
    ...config,
  });
}

describe("compact_when_cold through the CLI", () => {
  it(
    "compacts before the first request after the cache went cold: compaction_started and compaction with trigger cold_cache in --json, then the request with the summary",
    async () => {
      const t = await project({ compact_when_cold: 0.3 });
      for (const text of ["one", "two"]) {
        t.server.enqueue({ type: "text", text: `answer ${text}`, usage });
        expect((await t.run(`prompt ${text}`)).code).toBe(0);
      }
      // Warm: nothing compacted.
      t.server.enqueue({ type: "text", text: "answer three", usage });
      const warm = await t.run("prompt three", ["--json"]);
      expect(warm.code, warm.stderr).toBe(0);
      expect(jsonEvents(warm.stdout).some((event) => event.type === "compaction")).toBe(false);

      await recordedAnHourEarlier(t.session);
      t.server.enqueue({ type: "text", text: "THE SUMMARY" }, { type: "text", text: "answer four", usage });
      const cold = await t.run("prompt four", ["--json"]);
      expect(cold.code, cold.stderr).toBe(0);
      const events = jsonEvents(cold.stdout);
      expect(events.find((event) => event.type === "compaction_started")).toMatchObject({
        trigger: "cold_cache",
      });
      expect(events.find((event) => event.type === "compaction")).toMatchObject({
        trigger: "cold_cache",
        summary: "THE SUMMARY",
        turns_summarised: 3,
        turns_kept: 1,
      });
      expect(events.some((event) => event.type === "overflow_retry")).toBe(false);
      const sent = JSON.stringify(t.server.requests.at(-1)?.body);
      expect(sent).toContain("THE SUMMARY");
      expect(sent).toContain("prompt four");
      expect(sent).not.toContain("prompt one");
      const file = (await readFile(t.session, "utf8")).split("\n").filter(Boolean);
      expect(
        file.some((line) => line.includes('"type":"compaction"') && line.includes('"trigger":"cold-cache"')),
      ).toBe(true);
    },
    TIMEOUT,
  );

  it(
    "says so in print mode, on stderr, before the answer",
    async () => {
      const t = await project({ compact_when_cold: 0.3 });
      t.server.enqueue({ type: "text", text: "answer one", usage });
      expect((await t.run("prompt one")).code).toBe(0);
      await recordedAnHourEarlier(t.session);
      t.server.enqueue({ type: "text", text: "THE SUMMARY" }, { type: "text", text: "answer two", usage });
      const cold = await t.run("prompt two");
      expect(cold.code, cold.stderr).toBe(0);
      expect(cold.stderr).toContain("prompt cache expired: compacted 1 turn into a summary");
      expect(cold.stdout).toContain("answer two");
    },
    TIMEOUT,
  );

  it(
    "rejects a value that is not a fraction, naming the key and its rule",
    async () => {
      const t = await project({ compact_when_cold: 30 });
      const result = await t.run("hello");
      expect(result.code).not.toBe(0);
      expect(result.stderr).toContain("compact_when_cold");
      expect(result.stderr).toContain("must be a fraction between 0 and 1");
      expect(t.server.requests).toHaveLength(0);
    },
    TIMEOUT,
  );
});
