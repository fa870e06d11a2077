import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Agent, type AgentEvent } from "../../src/agent/index.js";
import { DEFAULT_CLEARING, estimateTokens } from "../../src/compaction/index.js";
import { recall } from "../../src/recall/recall.js";
import { openSession, type Session } from "../../src/session/index.js";
import type { FakeServer } from "../../src/simulator/fake-provider-types.js";
import { createDefaultTools } from "../../src/tools/index.js";
import { ADAPTER_FAMILIES } from "../support/adapter-families.js";

/**
 * Tool-result clearing through the real agent, with each of the four real adapters against its fake
 * server on 127.0.0.1: what each request carries (stubs for exactly the old results, the recent ones
 * and the turn in flight whole, every call still answered), the clearing entry, and recall reading
 * a cleared output back byte for byte.
 */
let dir: string | undefined;
let server: FakeServer | undefined;
let session: Session | undefined;
afterEach(async () => {
  await session?.close();
  await server?.close();
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  dir = server = session = undefined;
});

/** A distinct ~12 KB file per name, so each read's output is large and recognisable. */
const fileText = (name: string) =>
  Array.from({ length: 200 }, (_, line) => `${name} line ${line}: ${"lorem ipsum ".repeat(3)}`).join("\n");
const usage = { input: 6_000, output: 10 };
const read = (id: string, path: string) => ({
  type: "tool-calls" as const,
  calls: [{ id, name: "read", arguments: { path } }],
  usage,
});

describe.each(ADAPTER_FAMILIES)("clearing with the $name adapter", (family) => {
  it("replaces exactly the old results with stubs, keeps the recent ones and the turn in flight whole, and recall reads a cleared one back byte for byte", async () => {
    dir = await mkdtemp(join(tmpdir(), "panto-clearing-"));
    for (const name of ["a", "b", "c", "d"]) await writeFile(join(dir, `${name}.txt`), fileText(name));
    server = await family.startServer();
    session = await openSession(join(dir, "s.jsonl"), { cwd: dir });
    const events: AgentEvent[] = [];
    const oneOutput = estimateTokens(fileText("a"));
    const url = server.url;
    const agent = new Agent({
      session,
      model: `${family.provider}/${family.model}`,
      createClient: () =>
        family.createClient({
          provider: family.provider,
          model: family.model,
          apiKey: "sk-test",
          baseURL: url,
          retry: { maxRetries: 0, baseDelayMs: 1 },
        }),
      tools: createDefaultTools(),
      systemPrompt: "SYSTEM",
      compactionPrompt: "COMPACT",
      keepVerbatimTokens: 0,
      approve: async () => "allow",
      onEvent: (event) => events.push(event),
      cwd: dir,
      // One file's output alone is below min_reclaim_tokens; two are above.
      clearing: {
        ...DEFAULT_CLEARING,
        triggerTokens: 1_000,
        keepRecent: 1,
        minReclaimTokens: Math.round(oneOutput * 1.5),
      },
    });
    server.enqueue(read("call_a", "a.txt"), read("call_b", "b.txt"), { type: "text", text: "one", usage });
    expect((await agent.prompt("read a and b")).ok).toBe(true);
    server.enqueue(read("call_c", "c.txt"), { type: "text", text: "two", usage });
    expect((await agent.prompt("read c")).ok).toBe(true);
    server.enqueue(read("call_d", "d.txt"), { type: "text", text: "three", usage });
    expect((await agent.prompt("read d")).ok).toBe(true);

    const bodies = server.requests.map((request) => JSON.stringify(request.body));
    expect(bodies).toHaveLength(7);
    const [, , , secondFirst, secondLast, , third] = bodies as [
      string,
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    // The second prompt's first request: only a was old (b the most recent), too small a batch alone.
    expect(secondFirst).toContain("a line 17:");
    expect(secondFirst).toContain("b line 17:");
    // Its second request: a and b are old now (c the most recent, and in flight): cleared in one batch.
    expect(secondLast).toContain('cleared to save context: output of read \\"a.txt\\"');
    expect(secondLast).toContain('cleared to save context: output of read \\"b.txt\\"');
    expect(secondLast).not.toContain("a line 17:");
    expect(secondLast).not.toContain("b line 17:");
    expect(secondLast).toContain("c line 17:");
    // The third prompt's last request: c is old but alone below min_reclaim_tokens; d in flight.
    expect(third).toContain("c line 17:");
    expect(third).toContain("d line 17:");
    expect(third).not.toContain("a line 17:");
    // The calls themselves stay, each answered (the servers accepted every request).
    for (const path of ["a.txt", "b.txt", "c.txt", "d.txt"]) expect(third).toContain(path);
    if (family.name !== "google-gemini")
      for (const id of ["call_a", "call_b", "call_c", "call_d"]) expect(third).toContain(id);

    const cleared = events.filter((event) => event.type === "context-cleared");
    expect(cleared.map((event) => event.toolCallIds)).toEqual([["call_a", "call_b"]]);
    for (const event of cleared) expect(event.tokensAfter).toBeLessThan(event.tokensBefore);

    // The file keeps every output whole and records each clearing as an entry.
    const file = await readFile(join(dir, "s.jsonl"), "utf8");
    const clearings = file
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { type: string; results?: Array<{ toolCallId: string }> })
      .filter((entry) => entry.type === "clearing");
    expect(clearings.map((entry) => entry.results?.map((result) => result.toolCallId))).toEqual([
      ["call_a", "call_b"],
    ]);

    const answer = await recall(session, { tool_result: "call_a" });
    expect(answer.ok).toBe(true);
    const original = agent
      .effectiveContext()
      .messages.flatMap((message) => (message.role === "tool" ? message.content : []))
      .find((block) => block.toolCallId === "call_a");
    expect(original?.content).toEqual([
      { type: "text", text: expect.stringContaining("cleared to save context") },
    ]);
    const whole = session
      .unclearedContext()
      .messages.flatMap((message) => (message.role === "tool" ? message.content : []))
      .find((block) => block.toolCallId === "call_a");
    const wholeText = whole?.content[0]?.type === "text" ? whole.content[0].text : "";
    expect(wholeText).toContain("a line 17:");
    expect(answer.text.endsWith(`:\n${wholeText}`)).toBe(true);
  });
});
