import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createWriteTool } from "../../src/tools/index.js";
import { textOf, useTempDir } from "./temp-dir.js";

const write = createWriteTool();

describe("write tool", () => {
  const dir = useTempDir();

  it("creates missing parent directories and reports bytes and lines", async () => {
    const output = await write.execute({ path: "a/b/c.txt", content: "héllo\nworld\n" }, { cwd: dir() });
    expect(output.isError).toBe(false);
    expect(await readFile(path.join(dir(), "a/b/c.txt"), "utf8")).toBe("héllo\nworld\n");
    expect(textOf(output)).toBe("Created a/b/c.txt: 13 bytes, 2 lines");
  });

  it("overwrites an existing file and says so", async () => {
    await writeFile(path.join(dir(), "x.txt"), "old content");
    const output = await write.execute({ path: "x.txt", content: "new" }, { cwd: dir() });
    expect(textOf(output)).toBe("Overwrote x.txt: 3 bytes, 1 line");
    expect(await readFile(path.join(dir(), "x.txt"), "utf8")).toBe("new");
  });

  it("writes an empty file", async () => {
    const output = await write.execute({ path: "empty", content: "" }, { cwd: dir() });
    expect(textOf(output)).toBe("Created empty: 0 bytes, 0 lines");
  });

  it("fails with the path when the target is a directory", async () => {
    await mkdir(path.join(dir(), "folder"));
    const output = await write.execute({ path: "folder", content: "x" }, { cwd: dir() });
    expect(output.isError).toBe(true);
    expect(textOf(output)).toContain("folder: is a directory");
  });

  it("requires content", async () => {
    const output = await write.execute({ path: "a.txt" }, { cwd: dir() });
    expect(output.isError).toBe(true);
    expect(textOf(output)).toContain('missing required argument "content"');
  });
});
