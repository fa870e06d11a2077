import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { ToolCallBlock } from "../../src/core/index.js";
import { createDefaultTools, defineTool, runTool, type Tool } from "../../src/tools/index.js";
import { textOf, useTempDir } from "./temp-dir.js";

function call(name: string, args: Record<string, unknown>): ToolCallBlock {
  return { type: "tool-call", id: "call-1", name, arguments: args };
}

describe("createDefaultTools", () => {
  it("offers exactly read, write, edit, bash, ls, glob and grep with their permission kinds", () => {
    const tools = createDefaultTools();
    expect(tools.map((tool) => [tool.definition.name, tool.kind])).toEqual([
      ["read", "read"],
      ["write", "write"],
      ["edit", "write"],
      ["bash", "exec"],
      ["ls", "read"],
      ["glob", "read"],
      ["grep", "read"],
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
      'Unknown tool "delete_everything". Available tools: read, write, edit, bash, ls, glob, grep',
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
      run: () => Promise.reject(new Error("inner failure")),
    });
    const result = await runTool([tool], call("fragile", {}), { cwd: dir() });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe("inner failure");
  });
});
