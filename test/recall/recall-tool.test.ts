import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createRecallTool } from "../../src/recall/index.js";
import { newSessionHeader, openSession } from "../../src/session/index.js";
import { useSessionSandbox } from "../support/session-sandbox.js";
import { SessionWriter } from "./recall-fixture.js";

const sandbox = useSessionSandbox();

async function call(tool: ReturnType<typeof createRecallTool>, args: Record<string, unknown>) {
  const output = await tool.execute(args, { cwd: sandbox.dir });
  return {
    text: output.content.map((block) => (block.type === "text" ? block.text : "")).join(""),
    isError: output.isError,
  };
}

describe("the recall tool", () => {
  it("redacts secrets in what it returns, also ones written before they were known", async () => {
    const session = await sandbox.open(sandbox.path);
    const w = new SessionWriter(session);
    await w.user("deploy it");
    await w.bash("env | grep KEY", "DEPLOY_KEY=sk-live-0123456789abcdef", 0);
    const tool = createRecallTool({
      session: () => session,
      redact: (text) => text.replaceAll("sk-live-0123456789abcdef", "[redacted DEPLOY_KEY]"),
    });
    const search = await call(tool, { query: "DEPLOY_KEY" });
    expect(search.text).toContain("DEPLOY_KEY=[redacted DEPLOY_KEY]");
    expect(search.text).not.toContain("sk-live");
    const read = await call(tool, { turn: 1 });
    expect(read.text).toContain("[redacted DEPLOY_KEY]");
    expect(read.text).not.toContain("sk-live");
  });

  it("searches the session it was handed off from too, nearest first, and reads a parent turn on request", async () => {
    const parentPath = join(sandbox.dir, "parent.jsonl");
    const parent = await sandbox.open(parentPath);
    const p = new SessionWriter(parent);
    await p.turn("the flaky test is test/net.test.ts, retry it twice");
    await p.turn("unrelated");
    await parent.close();
    const child = await openSession(join(sandbox.dir, "child.jsonl"), {
      cwd: sandbox.dir,
      header: newSessionHeader(sandbox.dir, { id: parent.header.id, path: parentPath, relation: "handoff" }),
    });
    try {
      await new SessionWriter(child).turn("continue with the flaky test");
      const tool = createRecallTool({ session: () => child });
      const search = await call(tool, { query: "flaky test", limit: 3 });
      const short = parent.header.id.slice(0, 8);
      expect(search.text).toContain(
        `in turn 1 of this session and turns 1 to 2 of the handoff parent session ${short}`,
      );
      const places = [
        ...search.text.matchAll(/^\d+\. (turn \d+(?: of the handoff parent session \w+)?) ·/gm),
      ].map((m) => m[1]);
      expect(places).toEqual(["turn 1", "turn 1", `turn 1 of the handoff parent session ${short}`]);
      const read = await call(tool, { turn: 1, session: "parent" });
      expect(read.text).toContain(`Turn 1 of the handoff parent session ${short} (of 2)`);
      expect(read.text).toContain("retry it twice");
      const own = await call(tool, { turn: 1 });
      expect(own.text).toContain("continue with the flaky test");
    } finally {
      await child.close();
    }
  });

  it("says so when the parent cannot be found, and searches what it can", async () => {
    const child = await openSession(join(sandbox.dir, "child.jsonl"), {
      cwd: sandbox.dir,
      header: newSessionHeader(sandbox.dir, {
        id: "gone-id",
        path: join(sandbox.dir, "gone.jsonl"),
        relation: "handoff",
      }),
    });
    try {
      await new SessionWriter(child).turn("hello there");
      const result = await call(createRecallTool({ session: () => child }), { query: "hello" });
      expect(result.isError).toBe(false);
      expect(result.text).toContain("hello there");
      expect(result.text).toMatch(
        /Note: the handoff parent session gone-id could not be read at .*gone\.jsonl/,
      );
    } finally {
      await child.close();
    }
  });

  it("refuses a call that neither searches nor reads, or does both, and bad arguments, as errors the model reads", async () => {
    const session = await sandbox.open(sandbox.path);
    await new SessionWriter(session).turn("x");
    const tool = createRecallTool({ session: () => session });
    expect(await call(tool, {})).toEqual({
      isError: true,
      text: expect.stringContaining('give either "query"'),
    });
    expect((await call(tool, { query: "x", turn: 1 })).isError).toBe(true);
    expect((await call(tool, { turn: 1, tool_result: "toolu_1" })).isError).toBe(true);
    expect((await call(tool, { turn: 0 })).text).toMatch(/Invalid arguments for recall/);
    expect((await call(tool, { query: "x", limit: 99 })).isError).toBe(true);
  });
});
