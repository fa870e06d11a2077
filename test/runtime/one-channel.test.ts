import { afterEach, describe, expect, it } from "vitest";
import type { RunContext } from "../../src/runtime/run-context.js";
import { type RunEvent, RunEvents } from "../../src/runtime/run-events.js";
import { startRun } from "../../src/runtime/start-run.js";
import type { TurnResult } from "../../src/runtime/turn-result.js";
import { startFakeAnthropicServer } from "../../src/simulator/fake-anthropic-server.js";
import type { FakeServer } from "../../src/simulator/fake-provider-types.js";
import { makeSandbox } from "../cli/panto-process.js";

const MODEL = "anthropic/claude-sonnet-4-5";
/** What the compaction controls used to report as events besides their outcome. */
const CONTROL_EVENTS = ["pinned", "unpinned", "compaction-preview", "summary-edited", "compaction-undone"];

let server: FakeServer | undefined;
let run: RunContext | undefined;
afterEach(async () => {
  await run?.close();
  await server?.close();
  run = undefined;
  server = undefined;
});

function outcomeOf(result: TurnResult) {
  if (result.type !== "command") throw new Error(`not a command: ${JSON.stringify(result)}`);
  return result.outcome;
}

describe("a command's result is data, never also an event", { timeout: 30_000 }, () => {
  it("/pin, /unpin, /compact --preview, /summary edit and /uncompact return their outcome and add no event", async () => {
    const box = await makeSandbox();
    server = await startFakeAnthropicServer();
    const events = new RunEvents();
    const seen: RunEvent[] = [];
    events.subscribe((event) => seen.push(event));
    run = await startRun({
      options: { model: MODEL, sandbox: "full" },
      io: {
        cwd: box.project,
        env: { ...box.env, ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: server.url },
        version: "0.0.0-test",
      },
      events,
      frontEnd: {},
    });
    server.enqueue(
      { type: "text", text: "first answer" },
      { type: "text", text: "second answer" },
      { type: "text", text: "THE SUMMARY" },
    );
    expect(await run.submit("first")).toMatchObject({ type: "answered", text: "first answer" });
    expect(await run.submit("second")).toMatchObject({ type: "answered", text: "second answer" });

    expect(outcomeOf(await run.submit("/pin keep the parser"))).toEqual({
      type: "pinned",
      number: 1,
      text: "keep the parser",
    });
    expect(outcomeOf(await run.submit("/unpin 1"))).toEqual({
      type: "unpinned",
      number: 1,
      text: "keep the parser",
    });
    const preview = outcomeOf(await run.submit("/compact --preview --force"));
    expect(preview.type).toBe("compaction-preview");
    expect(outcomeOf(await run.submit("/compact --force")).type).toBe("compacted");
    const edited = outcomeOf(await run.submit("/summary edit THE EDITED SUMMARY"));
    expect(edited).toMatchObject({ type: "summary-edited", tokensBefore: expect.any(Number) });
    expect(edited.type === "summary-edited" && edited.tokensAfter).toBe(run.agent.contextTokens());
    const undone = outcomeOf(await run.submit("/uncompact"));
    expect(undone).toMatchObject({ type: "uncompacted", earlier: true });

    // The compaction itself happened during /compact: its events are there; the controls' are not.
    expect(seen.filter((event) => event.type === "compaction")).toHaveLength(1);
    expect(seen.filter((event) => CONTROL_EVENTS.includes(event.type))).toEqual([]);
  });
});
