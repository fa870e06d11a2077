import { chmod, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { RecordedRequest } from "../../src/simulator/fake-provider-types.js";
import { closeAfterEach } from "../support/close-after-each.js";
import { compactionCliProject } from "../support/compaction-cli-project.js";
import { jsonEvents, sessionLines } from "./run-cli.js";

/**
 * The compaction controls end to end: the built CLI as a subprocess against the fake Anthropic
 * server, every command in print and JSON modes, each run a fresh process (so each step also
 * resumes the session from its file).
 */
/** Every step is a CLI process of its own; a test runs a dozen or more. */
const TIMEOUT = 180_000;

const closeAfter = closeAfterEach();

const MODEL = "anthropic/claude-active";
const BIG_PROMPT = `p-one ${"lorem ipsum dolor sit amet ".repeat(1200)}`;
const isCompactionRequest = (request: RecordedRequest): boolean =>
  JSON.stringify(request.body).includes("<transcript>");
const messagesOf = (request: RecordedRequest | undefined): string =>
  JSON.stringify((request?.body as { messages?: unknown } | undefined)?.messages);
const systemOf = (request: RecordedRequest | undefined): string =>
  JSON.stringify((request?.body as { system?: unknown } | undefined)?.system);
/** How often a user prompt appears as a whole text block in a request. */
const countPrompt = (request: RecordedRequest | undefined, prompt: string): number =>
  messagesOf(request).split(`"text":"${prompt}"`).length - 1;

async function setup(config: Record<string, unknown> = {}) {
  const cli = await compactionCliProject(MODEL, closeAfter, config);
  const { server, run } = cli;
  const compact = async (summary: string, extra: string[] = []) => {
    server.enqueue({ type: "text", text: summary });
    const result = await run("/compact", extra);
    expect(result.code, result.stderr).toBe(0);
    return result;
  };
  /** Sends one more prompt and returns the request it made. */
  const probe = async (prompt: string) => {
    server.enqueue({ type: "text", text: "ok" });
    const result = await run(prompt);
    expect(result.code, result.stderr).toBe(0);
    return server.requests.at(-1);
  };
  return { ...cli, compact, probe };
}

const REJECTED = {
  type: "error" as const,
  status: 400,
  body: '{"type":"error","error":{"type":"invalid_request_error","message":"messages: text content blocks must be non-empty"}}',
};

describe("failed compactions on record", () => {
  it(
    "a summariser answering 400 leaves a compaction-failed entry and an unchanged context, in JSON and print modes",
    async () => {
      const t = await setup();
      await t.seed("p-one", "p-two");
      const before = await readFile(t.session, "utf8");

      t.server.enqueue(REJECTED);
      const json = await t.run("/compact", ["--json"]);
      expect(json.code).toBe(1);
      const events = jsonEvents(json.stdout);
      expect(events.find((event) => event.type === "compaction_started")).toMatchObject({
        trigger: "manual",
        model: MODEL,
        tokens_before: expect.any(Number),
      });
      const failed = events.find((event) => event.type === "compaction_failed");
      expect(failed).toMatchObject({
        trigger: "manual",
        code: "invalid_request",
        attempts: [{ model: MODEL, code: "invalid_request", message: expect.stringContaining("non-empty") }],
        duration_ms: expect.any(Number),
      });
      expect(events.some((event) => event.type === "compaction")).toBe(false);
      expect(json.stdout).not.toMatch(/compacted/i);

      const after = await readFile(t.session, "utf8");
      expect(after.startsWith(before)).toBe(true);
      const added = after
        .slice(before.length)
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line));
      expect(added).toEqual([
        expect.objectContaining({
          type: "compaction-failed",
          trigger: "manual",
          attempts: [expect.objectContaining({ model: MODEL, code: "invalid_request" })],
        }),
      ]);

      t.server.enqueue(REJECTED);
      const print = await t.run("/compact");
      expect(print.code).toBe(1);
      expect(print.stderr).toContain("compaction failed");
      expect(`${print.stdout}${print.stderr}`).not.toMatch(/compacted/i);

      const next = await t.probe("p-three");
      expect(countPrompt(next, "p-one")).toBe(1);
      expect(countPrompt(next, "p-two")).toBe(1);
      expect(messagesOf(next)).not.toContain("conversation-summary");

      const session = await t.run("/session");
      expect(session.code).toBe(0);
      expect(session.stdout).toContain("compactions: 0 written, 2 failed, 0 undone");
      expect(
        session.stdout.match(/manual\s+FAILED\s+anthropic\/claude-active: invalid_request/g),
      ).toHaveLength(2);
    },
    TIMEOUT,
  );
});

describe("/compact --preview", () => {
  it(
    "shows the plan with no model call and nothing written, with the figures the compaction then reports",
    async () => {
      const t = await setup({ keep_verbatim_tokens: 2000 });
      t.server.enqueue({ type: "text", text: "answer one" });
      expect((await t.run(BIG_PROMPT)).code).toBe(0);
      await t.seed("p-two");
      const requests = t.server.requests.length;
      const before = await readFile(t.session, "utf8");

      const print = await t.run("/compact --preview keep the bug list");
      expect(print.code, print.stderr).toBe(0);
      expect(print.stdout).toContain("Compaction preview (no model was called and nothing was written)");
      expect(print.stdout).toMatch(/1\s+summarise\s+\S+\s+estimate\s+"p-one lorem ipsum/);
      expect(print.stdout).toMatch(/2\s+keep\s+\S+\s+(?:usage|estimate)\s+"p-two"/);
      expect(print.stdout).toContain("would summarise 1 turn");
      expect(print.stdout).toContain(`summary by ${MODEL}`);
      expect(print.stdout).toContain("instructions: keep the bug list");

      const json = await t.run("/compact --preview", ["--json"]);
      expect(json.code, json.stderr).toBe(0);
      const preview = jsonEvents(json.stdout).find((event) => event.type === "compaction_preview");
      expect(preview).toMatchObject({
        trigger: "manual",
        model: MODEL,
        turns_summarised: 1,
        turns_kept: 1,
        request_tokens: expect.any(Number),
        turns: [
          { position: 1, action: "summarise", user_text: expect.stringMatching(/^p-one lorem/) },
          { position: 2, action: "keep", user_text: "p-two" },
        ],
      });
      expect(preview?.request_tokens as number).toBeGreaterThan(preview?.tokens_summarised as number);
      expect(t.server.requests).toHaveLength(requests);
      expect(await readFile(t.session, "utf8")).toBe(before);

      const compacted = await t.compact("S1", ["--json"]);
      const compaction = jsonEvents(compacted.stdout).find((event) => event.type === "compaction");
      for (const key of [
        "trigger",
        "model",
        "turns_summarised",
        "turns_kept",
        "tokens_summarised",
        "tokens_kept",
        "tokens_before",
        "size_sources",
      ])
        expect(compaction?.[key], key).toEqual(preview?.[key]);
    },
    TIMEOUT,
  );
});

describe("restored facts", () => {
  async function toolTurn(t: Awaited<ReturnType<typeof setup>>) {
    t.server.enqueue(
      {
        type: "tool-calls",
        calls: [
          { id: "t1", name: "read", arguments: { path: "src/missing-file.ts" } },
          { id: "t2", name: "bash", arguments: { command: "echo checked-it" } },
        ],
      },
      { type: "text", text: "done" },
    );
    const result = await t.run("p-one", ["--allow-tools"]);
    expect(result.code, result.stderr).toBe(0);
    await t.seed("p-two");
  }

  it(
    "appends the paths and errors a summary left out to the block, and reports them (JSON)",
    async () => {
      const t = await setup();
      await toolTurn(t);
      const result = await t.compact("We ran echo checked-it.", ["--json"]);
      const event = jsonEvents(result.stdout).find((e) => e.type === "compaction");
      const restored = event?.restored as Array<{ kind: string; text: string }>;
      expect(restored.map((fact) => fact.kind).sort()).toEqual(["error", "path"]);
      expect(restored).toContainEqual({ kind: "path", text: "src/missing-file.ts" });
      expect(event?.duration_ms).toEqual(expect.any(Number));
      const lines = await sessionLines(t.session);
      expect(lines.find((line) => line.type === "compaction")?.restored).toEqual(restored);

      const next = await t.probe("p-three");
      expect(messagesOf(next)).toContain("## Restored facts (recorded by panto");
      expect(messagesOf(next)).toContain("- path: src/missing-file.ts");
    },
    TIMEOUT,
  );

  it(
    "says what it added in print mode, and adds nothing with restore_facts: false",
    async () => {
      const t = await setup();
      await toolTurn(t);
      const result = await t.compact("Nothing specific.");
      // The command is in the ledger (with its outcome), so it is not repeated among the facts left out.
      expect(result.stdout).toContain("1 path and 1 error the summary left out were added");
      expect(result.stdout).toContain("  ledger:   0 files changed, the latest run of 1 command");

      const off = await setup({ restore_facts: false });
      await toolTurn(off);
      const json = await off.compact("Nothing specific.", ["--json"]);
      const event = jsonEvents(json.stdout).find((e) => e.type === "compaction");
      expect(event?.restored).toEqual([]);
      expect(event?.ledger).toBeUndefined();
      expect(event?.unverified).toEqual([]);
      const next = messagesOf(await off.probe("p-three"));
      expect(next).not.toContain("Restored facts");
      expect(next).toContain("This summary stands for turns 1 to 2 of this session.");
    },
    TIMEOUT,
  );
});

describe("/uncompact", () => {
  it(
    "walks back one compaction at a time across resumes, nothing duplicated, later turns kept once",
    async () => {
      const t = await setup();
      await t.seed("p-one", "p-two");
      await t.compact("SUMMARY-ONE");
      await t.seed("p-three");
      await t.compact("SUMMARY-TWO");
      await t.seed("p-four");
      const second = (await sessionLines(t.session)).filter((line) => line.type === "compaction").at(-1);

      const json = await t.run("/uncompact", ["--json"]);
      expect(json.code, json.stderr).toBe(0);
      expect(jsonEvents(json.stdout).find((e) => e.type === "compaction_undone")).toMatchObject({
        compaction_id: second?.id,
        trigger: "manual",
        earlier_compaction: true,
      });
      let next = await t.probe("p-five");
      expect(messagesOf(next)).toContain("SUMMARY-ONE");
      expect(messagesOf(next)).not.toContain("SUMMARY-TWO");
      expect(countPrompt(next, "p-one")).toBe(0);
      for (const prompt of ["p-three", "p-four", "p-five"]) expect(countPrompt(next, prompt), prompt).toBe(1);

      const print = await t.run("/uncompact");
      expect(print.code, print.stderr).toBe(0);
      expect(print.stdout).toContain("Undid the manual compaction");
      expect(print.stdout).toContain("No compaction is in effect now.");
      next = await t.probe("p-six");
      expect(messagesOf(next)).not.toContain("SUMMARY");
      for (const prompt of ["p-one", "p-two", "p-three", "p-four", "p-five", "p-six"])
        expect(countPrompt(next, prompt), prompt).toBe(1);

      const nothing = await t.run("/uncompact");
      expect(nothing.code).toBe(0);
      expect(nothing.stdout).toContain("Nothing to undo: no compaction is in effect.");
      const lines = await sessionLines(t.session);
      expect(lines.filter((line) => line.type === "compaction")).toHaveLength(2);
      expect(lines.filter((line) => line.type === "uncompact")).toHaveLength(2);
      expect((await t.run("/session")).stdout).toContain("compactions: 2 written, 0 failed, 2 undone");
    },
    TIMEOUT,
  );
});

describe("pinned notes", () => {
  it(
    "are seen by the model from then on and survive chained compactions word for word; /unpin removes one",
    async () => {
      const t = await setup();
      await t.seed("p-one");
      const pin = await t.run("/pin never touch src/legacy/");
      expect(pin.code, pin.stderr).toBe(0);
      expect(pin.stdout).toContain("Pinned note 1: never touch src/legacy/");
      const json = await t.run("/pin use `pnpm`, not npm", ["--json"]);
      expect(jsonEvents(json.stdout).find((e) => e.type === "pinned")).toEqual({
        type: "pinned",
        number: 2,
        text: "use `pnpm`, not npm",
        pins: ["never touch src/legacy/", "use `pnpm`, not npm"],
      });
      expect((await t.run("/pins")).stdout).toBe(
        "Pinned notes:\n  1. never touch src/legacy/\n  2. use `pnpm`, not npm\n",
      );
      let next = await t.probe("p-two");
      expect(messagesOf(next)).toContain("## Pinned notes");
      expect(messagesOf(next)).toContain("2. use `pnpm`, not npm");

      await t.compact("SUMMARY-ONE");
      const summariser = t.server.requests.filter(isCompactionRequest).at(-1);
      expect(systemOf(summariser)).toContain("## Pinned notes");
      expect(systemOf(summariser)).toContain("never touch src/legacy/");
      await t.seed("p-three");
      await t.compact("SUMMARY-TWO");
      next = await t.probe("p-four");
      expect(messagesOf(next)).toContain("SUMMARY-TWO");
      expect(messagesOf(next)).toContain("1. never touch src/legacy/\\n2. use `pnpm`, not npm");

      const unpin = await t.run("/unpin 1", ["--json"]);
      expect(jsonEvents(unpin.stdout).find((e) => e.type === "unpinned")).toMatchObject({
        number: 1,
        text: "never touch src/legacy/",
        pins: ["use `pnpm`, not npm"],
      });
      next = await t.probe("p-five");
      expect(messagesOf(next)).not.toContain("src/legacy");
      expect(messagesOf(next)).toContain("1. use `pnpm`, not npm");
      const bad = await t.run("/unpin 7");
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain("/unpin needs a note number from 1 to 1");
    },
    TIMEOUT,
  );
});

describe("/summary and /summary edit", () => {
  it(
    "prints the summary, stores an edit from $EDITOR as an edited compaction, and /uncompact brings the old one back",
    async () => {
      const t = await setup();
      await t.seed("p-one");
      expect((await t.run("/summary")).stdout).toContain("No summary: no compaction is in effect.");
      await t.seed("p-two");
      await t.compact("SUMMARY-BY-MODEL");
      await t.seed("p-three");
      const shown = await t.run("/summary");
      expect(shown.stdout).toContain("Summary in effect (manual compaction");
      expect(shown.stdout).toContain("SUMMARY-BY-MODEL");

      const editor = join(t.project, "fake-editor.sh");
      await writeFile(editor, '#!/bin/sh\necho "editing $1"\nprintf "SUMMARY-BY-HAND\\n" > "$1"\n');
      await chmod(editor, 0o755);
      const requests = t.server.requests.length;
      const json = await t.run("/summary edit", ["--json"], { EDITOR: editor });
      expect(json.code, json.stderr).toBe(0);
      expect(json.stderr).toContain("editing ");
      expect(jsonEvents(json.stdout).find((e) => e.type === "summary_edited")).toMatchObject({
        compaction_id: expect.any(String),
        summary_tokens: expect.any(Number),
      });
      expect(t.server.requests).toHaveLength(requests);
      const compactions = (await sessionLines(t.session)).filter((line) => line.type === "compaction");
      expect(compactions.at(-1)).toMatchObject({
        trigger: "edited",
        summary: "SUMMARY-BY-HAND",
        editedFrom: compactions.at(-2)?.id,
      });

      let next = await t.probe("p-four");
      expect(messagesOf(next)).toContain("SUMMARY-BY-HAND");
      expect(messagesOf(next)).not.toContain("SUMMARY-BY-MODEL");
      expect(countPrompt(next, "p-three")).toBe(1);

      expect((await t.run("/uncompact")).code).toBe(0);
      next = await t.probe("p-five");
      expect(messagesOf(next)).toContain("SUMMARY-BY-MODEL");
      expect(messagesOf(next)).not.toContain("SUMMARY-BY-HAND");
      for (const prompt of ["p-three", "p-four", "p-five"]) expect(countPrompt(next, prompt), prompt).toBe(1);

      const print = await t.run("/summary edit", [], { VISUAL: editor });
      expect(print.stdout).toContain("Summary replaced");

      const none = await t.run("/summary edit");
      expect(none.code).toBe(2);
      expect(none.stderr).toContain("no editor: set $VISUAL or $EDITOR");

      // Without an editor, the new summary can come with the command (ACP and JSON front-ends).
      const inline = await t.run("/summary edit SUMMARY-INLINE, typed with the command");
      expect(inline.code, inline.stderr).toBe(0);
      const latest = (await sessionLines(t.session)).filter((line) => line.type === "compaction").at(-1);
      expect(latest).toMatchObject({ trigger: "edited", summary: "SUMMARY-INLINE, typed with the command" });
      expect(messagesOf(await t.probe("p-six"))).toContain("SUMMARY-INLINE, typed with the command");
      const wrong = await t.run("/summary delete");
      expect(wrong.code).toBe(2);
      expect(wrong.stderr).toContain('/summary takes no argument, "edit", or "edit" and the new summary');
    },
    TIMEOUT,
  );
});
