import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { estimateTokens } from "../../src/compaction/index.js";
import { startFakeGeminiServer } from "../../src/simulator/fake-gemini-server.js";
import { closeAfterEach } from "../support/close-after-each.js";
import { cliEnv, jsonEvents, runCli, sessionLines, tempProject } from "./run-cli.js";

/**
 * Tool-result clearing end to end on Gemini when the API sends its function calls without ids (its
 * usual answer): the built CLI against the fake Gemini server, one process per prompt. The ids
 * panto makes up must differ from answer to answer, or clearing (which skips an id that occurs
 * twice), the stubs and `recall {"tool_result": ID}` could not name one output.
 */
const TIMEOUT = 120_000;
const MODEL = "google/gemini-test";
const closeAfter = closeAfterEach();

const fileText = (name: string) =>
  Array.from({ length: 200 }, (_, line) => `${name} line ${line}: ${"lorem ipsum ".repeat(3)}`).join("\n");
const oneOutput = estimateTokens(fileText("a"));
const usage = { input: 6_000, output: 10 };
/** A `read` call with no id, as Gemini sends it. */
const read = (path: string) => ({
  type: "tool-calls" as const,
  calls: [{ name: "read", arguments: { path } }],
  usage,
});

type Part = {
  functionCall?: { name: string; args: Record<string, unknown>; id?: string };
  functionResponse?: { name: string; response: { output?: string; error?: string }; id?: string };
};
type Content = { role: string; parts: Part[] };

/** Each call's path and the response Gemini reads as its answer (by order, there being no ids). */
function answersByPath(body: unknown): Map<string, string> {
  const contents = (body as { contents: Content[] }).contents;
  const answers = new Map<string, string>();
  contents.forEach((content, index) => {
    const calls = content.parts.flatMap((part) =>
      part.functionCall === undefined ? [] : [part.functionCall],
    );
    const responses = (contents[index + 1]?.parts ?? []).flatMap((part) =>
      part.functionResponse === undefined ? [] : [part.functionResponse],
    );
    calls.forEach((call, position) => {
      const response = responses[position]?.response;
      answers.set(String(call.args.path), response?.output ?? response?.error ?? "(none)");
    });
  });
  return answers;
}

async function project() {
  const server = closeAfter(await startFakeGeminiServer());
  const { home, project } = await tempProject();
  await mkdir(join(project, ".panto"), { recursive: true });
  await writeFile(
    join(project, ".panto", "config.json"),
    JSON.stringify({
      keep_verbatim_tokens: 0,
      clearing: { keep_recent: 1, min_reclaim_tokens: Math.round(oneOutput * 1.5), trigger_tokens: 1_000 },
    }),
  );
  for (const name of ["a", "b", "c"]) await writeFile(join(project, `${name}.txt`), fileText(name));
  const env = cliEnv(home, { GEMINI_API_KEY: "test-key", GEMINI_BASE_URL: server.url });
  const session = join(project, "s.jsonl");
  const run = (prompt: string, extra: string[] = []) =>
    runCli(["-m", MODEL, "--session", session, ...extra, "-p", prompt], { cwd: project, env });
  return { server, session, run };
}

describe("clearing through the CLI on Gemini, whose calls come without ids", () => {
  it(
    "gives every call its own id, clears the old outputs and stubs exactly those, and recall reads one back",
    async () => {
      const t = await project();
      t.server.enqueue(read("a.txt"), read("b.txt"), { type: "text", text: "one", usage });
      const first = await t.run("read a and b");
      expect(first.code, first.stderr).toBe(0);

      t.server.enqueue(read("c.txt"), { type: "text", text: "two", usage });
      const second = await t.run("read c", ["--json"]);
      expect(second.code, second.stderr).toBe(0);

      // Three answers, each with one id-less `read` at index 0: three ids, all synthetic, all distinct.
      const results = (await sessionLines(t.session)).flatMap((line) => {
        const message = line.message as
          | { role?: string; content?: Array<{ toolCallId: string }> }
          | undefined;
        return line.type === "message" && message?.role === "tool" ? (message.content ?? []) : [];
      });
      const ids = results.map((result) => result.toolCallId);
      expect(ids).toHaveLength(3);
      expect(new Set(ids).size).toBe(3);
      for (const id of ids) expect(id).toMatch(/^gemini_call_[0-9a-f]{12}_0_read$/);
      const [idA, idB, idC] = ids as [string, string, string];

      const cleared = jsonEvents(second.stdout).filter((event) => event.type === "context_cleared");
      expect(cleared).toHaveLength(1);
      expect(cleared[0]).toMatchObject({ tool_results: 2, ids: [idA, idB] });

      // What Gemini was sent: a's and b's answers are their own stubs, c's is whole, and no synthetic
      // id went on the wire as a call's or response's id (Gemini pairs them by name and order).
      const sent = t.server.requests.at(-1)?.body as { contents: Content[] };
      const wireIds = sent.contents
        .flatMap((content) => content.parts)
        .flatMap((part) => [part.functionCall?.id, part.functionResponse?.id])
        .filter((id) => id !== undefined);
      expect(wireIds).toEqual([]);
      const answers = answersByPath(sent);
      expect(answers.get("a.txt")).toMatch(/^\[cleared to save context: output of read "a\.txt"/);
      expect(answers.get("a.txt")).toContain(`recall {"tool_result": "${idA}"} reads it back`);
      expect(answers.get("b.txt")).toMatch(/^\[cleared to save context: output of read "b\.txt"/);
      expect(answers.get("b.txt")).toContain(`recall {"tool_result": "${idB}"} reads it back`);
      expect(answers.get("c.txt")).toContain("c line 199:");

      // A new process resumes the file, and the model recalls a's output by the id its stub names.
      t.server.enqueue(
        { type: "tool-calls", calls: [{ name: "recall", arguments: { tool_result: idA } }], usage },
        { type: "text", text: "three", usage },
      );
      const third = await t.run("what was in a?");
      expect(third.code, third.stderr).toBe(0);
      const last = t.server.requests.at(-1)?.body as { contents: Content[] };
      const again = answersByPath(last);
      expect(again.get("a.txt")).toMatch(/^\[cleared to save context: output of read "a\.txt"/);
      expect(again.get("b.txt")).toMatch(/^\[cleared to save context: output of read "b\.txt"/);
      expect(again.get("c.txt")).toContain("c line 199:");
      const recalled = last.contents
        .flatMap((content) => content.parts)
        .find((part) => part.functionResponse?.name === "recall")?.functionResponse?.response;
      expect(recalled?.error).toBeUndefined();
      expect(recalled?.output).toContain("a line 199:");
      expect(recalled?.output).not.toContain("b line");
      expect(idC).not.toBe(idA);
    },
    TIMEOUT,
  );
});
