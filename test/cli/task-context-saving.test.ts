import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startFakeAnthropicServer } from "../../src/simulator/fake-anthropic-server.js";
import type { FakeReply, FakeServer, RecordedRequest } from "../../src/simulator/fake-provider-types.js";
import { makeSandbox, runPanto } from "./panto-process.js";

/**
 * Issue 27 item 4: how much of the parent's context a subagent saves on a scripted search. The
 * same search (a grep, then reading the four files it finds) is done by the parent itself, then
 * handed to `task`; the figure is the size of the parent's last request (the context it carries on
 * with), as the JSON body sent to the fake server.
 */
const MODEL = "anthropic/claude-sonnet-4-5";
const FILES = ["lexer", "parser", "printer", "checker"];

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const isChild = (request: RecordedRequest): boolean =>
  JSON.stringify((request.body as { system?: unknown }).system ?? "").includes("another agent handed you");
/** Tool results in the child's messages (recall's definition names a `tool_result` parameter too). */
const rounds = (request: RecordedRequest): number =>
  JSON.stringify((request.body as { messages?: unknown }).messages ?? []).split('"type":"tool_result"')
    .length - 1;

/** The search itself: grep, read each file found, then the answer. `step` is the tool rounds done so far. */
function searchStep(step: number): FakeReply {
  if (step === 0)
    return {
      type: "tool-calls",
      calls: [{ id: "s_grep", name: "grep", arguments: { pattern: "TODO", path: "src" } }],
    };
  const file = FILES[step - 1];
  if (file !== undefined)
    return {
      type: "tool-calls",
      calls: [{ id: `s_read${step}`, name: "read", arguments: { path: `src/${file}.ts` } }],
    };
  return {
    type: "text",
    text: "The TODOs are in src/lexer.ts, src/parser.ts, src/printer.ts and src/checker.ts (line 3 each).",
  };
}

async function lastParentRequestBytes(viaTask: boolean): Promise<number> {
  const box = await makeSandbox();
  await mkdir(join(box.project, "src"));
  for (const name of FILES) {
    const body = Array.from(
      { length: 120 },
      (_, line) => `export const ${name}${line} = ${line}; // ${name} code`,
    );
    body[2] = `// TODO: finish the ${name}`;
    await writeFile(join(box.project, "src", `${name}.ts`), `${body.join("\n")}\n`);
  }
  server = await startFakeAnthropicServer({
    responder: (request) => {
      if (isChild(request)) return searchStep(rounds(request));
      if (!viaTask) return searchStep(rounds(request));
      return rounds(request) === 0
        ? {
            type: "tool-calls",
            calls: [{ id: "t1", name: "task", arguments: { prompt: "Find every TODO under src" } }],
          }
        : { type: "text", text: "done" };
    },
  });
  const env = { ...box.env, ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: server.url };
  const result = await runPanto(["-m", MODEL, "-p", "where are the TODOs?"], { cwd: box.project, env });
  expect(result.code).toBe(0);
  const parent = server.requests.filter((request) => !isChild(request));
  return JSON.stringify(parent.at(-1)?.body).length;
}

describe("context saved by a subagent (scripted search against the fake server)", { timeout: 60_000 }, () => {
  it("keeps the parent's request several times smaller than doing the search inline", async () => {
    const inline = await lastParentRequestBytes(false);
    const viaTask = await lastParentRequestBytes(true);
    // The request still carries the system prompt and tool definitions; the search's reads do not.
    const figures = `inline ${inline} bytes, via task ${viaTask} bytes, saved ${inline - viaTask} bytes (${((1 - viaTask / inline) * 100).toFixed(0)}%)`;
    console.log(`task context saving: ${figures}`);
    expect(inline - viaTask).toBeGreaterThan(10_000);
  });
});
