import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { startFakeAnthropicServer } from "../../src/simulator/fake-anthropic-server.js";
import type { FakeServer } from "../../src/simulator/fake-provider-types.js";
import { AcpProcess } from "../acp/acp-harness.js";
import { closeAfterEach } from "../support/close-after-each.js";
import { type InteractiveRun, lastUserText, startInteractive } from "./interactive-harness.js";
import { jsonLines, makeSandbox, runPanto, type Sandbox } from "./panto-process.js";

const MODEL = "anthropic/claude-sonnet-4-5";
const NOTE = "NOTE-CONTENTS: the parser lives in src/parse.ts";
const ANSWER = "ANSWER-TO-THE-NOTE";

/** One input typed the same way in every front-end, and what each must show for it. */
interface Case {
  input: string;
  shows: string;
  /** It fails (print and JSON: a non-zero exit status; ACP: an error or an "Error:" report). */
  fails?: boolean;
  /** It goes to the model with note.txt attached (its answer is ANSWER). */
  attaches?: boolean;
}

/** A representative set, in this order in one session: /compact finds nothing to compact yet. */
const CASES: Case[] = [
  { input: "/help", shows: "/compact" },
  { input: "/context", shows: "Effective context:" },
  { input: "/pin keep the parser", shows: "Pinned note 1: keep the parser" },
  { input: "/compact", shows: "Nothing to compact" },
  { input: "/compat", shows: "unknown command /compat; did you mean /compact?", fails: true },
  { input: "!echo shell-ran-$((40 + 2))", shows: "shell-ran-42" },
  { input: "look at @note.txt", shows: ANSWER, attaches: true },
  { input: "look at @missing.txt", shows: "@missing.txt: no such file", fails: true },
];

/** What a front-end showed for one input. */
interface Seen {
  text: string;
  failed: boolean;
}

const closeAfter = closeAfterEach();

async function setUp(): Promise<{ box: Sandbox; server: FakeServer; env: NodeJS.ProcessEnv }> {
  const box = await makeSandbox();
  await writeFile(join(box.project, "note.txt"), NOTE);
  const server = closeAfter(await startFakeAnthropicServer());
  const env = { ...box.env, ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: server.url };
  return { box, server, env };
}

/** The model's request for an attaching input carried the file, as the terminal has always sent it. */
function expectAttached(server: FakeServer): void {
  const sent = lastUserText(server);
  expect(sent).toContain("look at @note.txt");
  expect(sent).toContain(`<file path="note.txt">\n${NOTE}\n</file>`);
}

function expectSame(seen: Seen, wanted: Case): void {
  expect(seen.text, wanted.input).toContain(wanted.shows);
  expect(seen.failed, wanted.input).toBe(wanted.fails === true);
}

describe("every input form works the same through print, JSON, ACP and the terminal (run.submit)", {
  timeout: 120_000,
}, () => {
  it("print mode: the report or answer on stdout, a failure as a non-zero exit", async () => {
    const { box, server, env } = await setUp();
    for (const wanted of CASES) {
      if (wanted.attaches === true) server.enqueue({ type: "text", text: ANSWER });
      const run = await runPanto(["-m", MODEL, "--sandbox", "full", "-p", wanted.input], {
        cwd: box.project,
        env,
      });
      expectSame({ text: `${run.stdout}${run.stderr}`, failed: run.code !== 0 }, wanted);
      if (wanted.attaches === true) expectAttached(server);
    }
  });

  it("JSON mode: the report in done.text, a failure as an error event and a non-zero exit_code", async () => {
    const { box, server, env } = await setUp();
    for (const wanted of CASES) {
      if (wanted.attaches === true) server.enqueue({ type: "text", text: ANSWER });
      const run = await runPanto(["-m", MODEL, "--sandbox", "full", "--json", "-p", wanted.input], {
        cwd: box.project,
        env,
      });
      const events = jsonLines(run.stdout);
      const done = events.at(-1);
      expect(done?.type).toBe("done");
      const errors = events.filter((event) => event.type === "error").map((event) => String(event.message));
      const text = [String(done?.text ?? ""), ...errors].join("\n");
      expectSame({ text, failed: done?.exit_code !== 0 }, wanted);
      expect(errors.length > 0, wanted.input).toBe(wanted.fails === true);
      if (wanted.attaches === true) expectAttached(server);
    }
  });

  it("ACP: the report as agent text in one session, a refused input as the prompt's error", async () => {
    const { box, server, env } = await setUp();
    const acp = new AcpProcess(["-m", MODEL, "--sandbox", "full"], { cwd: box.project, env });
    try {
      await acp.initialize();
      const { sessionId } = await acp.agent.request("session/new", { cwd: box.project, mcpServers: [] });
      for (const wanted of CASES) {
        if (wanted.attaches === true) server.enqueue({ type: "text", text: ANSWER });
        const before = acp.updates(sessionId).length;
        let failed = false;
        let error = "";
        try {
          const { stopReason } = await acp.agent.request("session/prompt", {
            sessionId,
            prompt: [{ type: "text", text: wanted.input }],
          });
          expect(stopReason, wanted.input).toBe("end_turn");
        } catch (thrown) {
          failed = true;
          error = thrown instanceof Error ? thrown.message : JSON.stringify(thrown);
        }
        const text = acp
          .updates(sessionId)
          .slice(before)
          .flatMap((update: SessionUpdate) =>
            update.sessionUpdate === "agent_message_chunk" && update.content.type === "text"
              ? [update.content.text]
              : [],
          )
          .join("");
        expectSame({ text: `${text}${error}`, failed: failed || text.includes("Error:") }, wanted);
        if (wanted.attaches === true) expectAttached(server);
      }
    } finally {
      acp.kill();
    }
  });

  it("the terminal: each report on the screen, in one session", async () => {
    const box = await makeSandbox();
    await writeFile(join(box.project, "note.txt"), NOTE);
    const run: InteractiveRun = await startInteractive(box, { sandbox: "full" });
    closeAfter(run.server);
    let from = 0;
    for (const wanted of CASES) {
      if (wanted.attaches === true) run.server.enqueue({ type: "text", text: ANSWER });
      run.terminal.type(`${wanted.input}\r`);
      from = await run.terminal.waitFor(wanted.shows, from);
      if (wanted.attaches === true) {
        expect(run.terminal.screen).toContain("(attached note.txt)");
        expectAttached(run.server);
      }
      // The next prompt is drawn once this input has ended.
      from = await run.terminal.waitFor("> ", from);
    }
    run.terminal.type("\u0004");
    expect(await run.exit).toBe(0);
  });
});
