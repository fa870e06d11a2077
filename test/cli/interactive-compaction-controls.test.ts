import { afterEach, describe, expect, it } from "vitest";
import type { FakeServer } from "../../src/simulator/fake-provider-types.js";
import { startInteractiveAfterOneTurn } from "../support/interactive-after-one-turn.js";

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const sent = (): string =>
  JSON.stringify((server?.requests.at(-1)?.body as { messages?: unknown } | undefined)?.messages);

describe("compaction controls in the interactive session", { timeout: 90_000 }, () => {
  it("pins, previews, compacts, prints the summary and takes the compaction back", async () => {
    const { run, seen: first } = await startInteractiveAfterOneTurn();
    server = run.server;
    const { terminal } = run;
    let seen = first;
    terminal.type("/pin always run the linter\r");
    seen = await terminal.waitFor("Pinned note 1: always run the linter", seen);
    terminal.type("/compact --preview\r");
    seen = await terminal.waitFor("would summarise 1 turn", seen);
    expect(server.requests).toHaveLength(1);

    server.enqueue({ type: "text", text: "THE-SUMMARY" });
    terminal.type("/compact\r");
    seen = await terminal.waitFor("Compacted 1 turn into a summary", seen);
    terminal.type("/summary\r");
    seen = await terminal.waitFor("THE-SUMMARY", seen);
    terminal.type("/pins\r");
    seen = await terminal.waitFor("1. always run the linter", seen);

    server.enqueue({ type: "text", text: "second answer" });
    terminal.type("second question\r");
    seen = await terminal.waitForAnswer("second answer", seen);
    expect(sent()).toContain("THE-SUMMARY");
    expect(sent()).toContain("always run the linter");
    expect(sent()).not.toContain("first question");

    terminal.type("/uncompact\r");
    seen = await terminal.waitFor("No compaction is in effect now.", seen);
    server.enqueue({ type: "text", text: "third answer" });
    terminal.type("third question\r");
    seen = await terminal.waitForAnswer("third answer", seen);
    expect(sent()).not.toContain("THE-SUMMARY");
    for (const question of ["first question", "second question", "third question"])
      expect(sent().split(`"text":"${question}"`)).toHaveLength(2);

    terminal.type("/unpin 1\r");
    await terminal.waitFor("Unpinned note 1: always run the linter", seen);
    terminal.type("\u0004");
    expect(await run.exit).toBe(0);
  });
});
