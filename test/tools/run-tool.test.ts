import { execFileSync } from "node:child_process";
import { open, readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { ToolCallBlock } from "../../src/core/index.js";
import { createDefaultTools, defineTool, runTool, type Tool } from "../../src/tools/index.js";
import { toParameters } from "../../src/tools/to-parameters.js";
import { textOf, useTempDir } from "./temp-dir.js";

function call(name: string, args: Record<string, unknown>): ToolCallBlock {
  return { type: "tool-call", id: "call-1", name, arguments: args };
}

describe("createDefaultTools", () => {
  it("offers exactly read, write, edit, bash, bash_output, kill_task, ls, glob, grep and web_fetch with their permission kinds (web_fetch asked like a command; reading or stopping a background task asks nothing)", () => {
    const tools = createDefaultTools();
    expect(tools.map((tool) => [tool.definition.name, tool.kind])).toEqual([
      ["read", "read"],
      ["write", "write"],
      ["edit", "write"],
      ["bash", "exec"],
      ["bash_output", "read"],
      ["kill_task", "read"],
      ["ls", "read"],
      ["glob", "read"],
      ["grep", "read"],
      ["web_fetch", "exec"],
    ]);
  });

  it("describes each tool's parameters as a plain JSON Schema object", () => {
    const read = createDefaultTools().find((tool) => tool.definition.name === "read");
    expect(read?.definition.parameters).toEqual({
      type: "object",
      properties: {
        path: expect.objectContaining({ type: "string" }),
        offset: expect.objectContaining({ type: "integer", minimum: 1 }),
        limit: expect.objectContaining({ type: "integer", minimum: 1 }),
      },
      required: ["path"],
      additionalProperties: false,
    });
    for (const tool of createDefaultTools()) {
      expect(tool.definition.description.length).toBeGreaterThan(20);
      expect(JSON.stringify(tool.definition.parameters)).not.toContain("$schema");
      expect(JSON.stringify(tool.definition.parameters)).not.toContain(String(Number.MAX_SAFE_INTEGER));
    }
  });
});

describe("runTool", () => {
  const dir = useTempDir();

  it("runs the named tool and wraps its output in a result block for the call", async () => {
    const result = await runTool(createDefaultTools(), call("write", { path: "f.txt", content: "hi" }), {
      cwd: dir(),
    });
    expect(result).toEqual({
      type: "tool-result",
      toolCallId: "call-1",
      toolName: "write",
      content: [{ type: "text", text: "Created f.txt: 2 bytes, 1 line" }],
      isError: false,
    });
    expect(await readFile(path.join(dir(), "f.txt"), "utf8")).toBe("hi");
  });

  it("answers an unknown tool with an error listing the available ones", async () => {
    const result = await runTool(createDefaultTools(), call("delete_everything", {}), { cwd: dir() });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      'Unknown tool "delete_everything". Available tools: read, write, edit, bash, bash_output, kill_task, ls, glob, grep, web_fetch',
    );
  });

  it("answers invalid arguments with an error naming each bad argument", async () => {
    const result = await runTool(createDefaultTools(), call("edit", { path: 7, file_path: "x" }), {
      cwd: dir(),
    });
    expect(result.isError).toBe(true);
    const text = textOf(result);
    expect(text).toMatch(/^Invalid arguments for edit: /);
    expect(text).toContain('"path": expected string, received number (got 7)');
    expect(text).toContain('missing required argument "old_string"');
    expect(text).toContain('unknown argument "file_path"');
  });

  it("turns a tool that throws into an error result instead of throwing", async () => {
    const exploding: Tool = {
      definition: { name: "boom", description: "always throws", parameters: { type: "object" } },
      kind: "read",
      execute: () => Promise.reject(new Error("kaboom")),
    };
    const result = await runTool([exploding], call("boom", {}), { cwd: dir() });
    expect(result).toMatchObject({
      isError: true,
      toolName: "boom",
      content: [{ type: "text", text: "boom failed: kaboom" }],
    });
  });

  it("turns an exception inside a defined tool into an error output", async () => {
    const tool = defineTool({
      name: "fragile",
      description: "throws from run",
      kind: "read",
      schema: z.strictObject({}),
      parameters: toParameters(z.strictObject({})),
      run: () => Promise.reject(new Error("inner failure")),
    });
    const result = await runTool([tool], call("fragile", {}), { cwd: dir() });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe("inner failure");
  });
});

describe("runTool deadlines", () => {
  const dir = useTempDir();

  /** A read tool that waits for `until` and records the signal it was given. */
  function waitingTool(until: (signal: AbortSignal) => Promise<string>): { tool: Tool; seen: AbortSignal[] } {
    const seen: AbortSignal[] = [];
    const tool = defineTool({
      name: "slow",
      kind: "read",
      description: "waits",
      schema: z.strictObject({}),
      parameters: toParameters(z.strictObject({})),
      async run(_args, context) {
        if (context.signal !== undefined) seen.push(context.signal);
        return {
          content: [{ type: "text", text: await until(context.signal as AbortSignal) }],
          isError: false,
        };
      },
    });
    return { tool, seen };
  }

  it("abandons a tool stuck in a file-system call (reading a FIFO nobody writes) at its deadline", async () => {
    const fifo = path.join(dir(), "pipe");
    execFileSync("mkfifo", [fifo]);
    const { tool, seen } = waitingTool(() => readFile(fifo, "utf8"));
    const result = await runTool([tool], call("slow", {}), { cwd: dir() }, { deadlineMs: 50 });
    expect(result).toMatchObject({ toolCallId: "call-1", toolName: "slow", isError: true });
    expect(textOf(result)).toBe(
      "slow did not finish within 50 ms and was abandoned (a stuck file system or a file that never ends?); try another way",
    );
    expect(seen[0]?.aborted).toBe(true);
    // Give the stuck read its end of file, so the thread it holds is freed.
    await (await open(fifo, "w")).close();
  });

  it("returns a tool's own answer when it finishes in time", async () => {
    const { tool } = waitingTool(async () => "done");
    const result = await runTool([tool], call("slow", {}), { cwd: dir() }, { deadlineMs: 60_000 });
    expect(result).toMatchObject({ isError: false, content: [{ type: "text", text: "done" }] });
  });

  it("after an interrupt, keeps the answer of a tool that stops on its signal, and abandons one that does not", async () => {
    const stops = waitingTool(
      (signal) =>
        new Promise((resolve) =>
          signal.addEventListener("abort", () => resolve("stopped cleanly"), { once: true }),
        ),
    );
    const interrupt = new AbortController();
    const answer = runTool(
      [stops.tool],
      call("slow", {}),
      { cwd: dir(), signal: interrupt.signal },
      { abortGraceMs: 60_000 },
    );
    interrupt.abort();
    expect(textOf(await answer)).toBe("stopped cleanly");

    const ignores = waitingTool(() => new Promise<string>(() => {}));
    const stuck = new AbortController();
    const abandoned = runTool(
      [ignores.tool],
      call("slow", {}),
      { cwd: dir(), signal: stuck.signal },
      { abortGraceMs: 20 },
    );
    stuck.abort();
    const result = await abandoned;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe("slow was interrupted and did not stop within 20 ms; abandoned");
    expect(ignores.seen[0]?.aborted).toBe(true);
  });

  it("removes its interrupt listener once the call is over, however many calls share one signal", async () => {
    const { tool } = waitingTool(async () => "ok");
    const shared = new AbortController();
    let listeners = 0;
    const add = shared.signal.addEventListener.bind(shared.signal);
    const remove = shared.signal.removeEventListener.bind(shared.signal);
    shared.signal.addEventListener = ((...args: Parameters<typeof add>) => {
      listeners++;
      add(...args);
    }) as typeof add;
    shared.signal.removeEventListener = ((...args: Parameters<typeof remove>) => {
      listeners--;
      remove(...args);
    }) as typeof remove;
    for (let index = 0; index < 20; index++) {
      await runTool([tool], call("slow", {}), { cwd: dir(), signal: shared.signal });
    }
    expect(listeners).toBe(0);
  });
});
