import { mkdir, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createGlobTool } from "../../src/tools/index.js";
import { textOf, useTempDir } from "./temp-dir.js";

const globTool = createGlobTool();

async function touch(root: string, relative: string, mtimeSeconds: number): Promise<void> {
  const file = path.join(root, relative);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, "x");
  await utimes(file, mtimeSeconds, mtimeSeconds);
}

describe("glob tool", () => {
  const dir = useTempDir();

  it("lists matches newest first, skipping node_modules and .git", async () => {
    await touch(dir(), "src/old.ts", 1_000_000);
    await touch(dir(), "src/deep/new.ts", 3_000_000);
    await touch(dir(), "mid.ts", 2_000_000);
    await touch(dir(), "node_modules/pkg/index.ts", 4_000_000);
    await touch(dir(), ".git/hooks/x.ts", 4_000_000);
    await touch(dir(), "readme.md", 4_000_000);
    const output = await globTool.execute({ pattern: "**/*.ts" }, { cwd: dir() });
    expect(output.isError).toBe(false);
    expect(textOf(output)).toBe("src/deep/new.ts\nmid.ts\nsrc/old.ts");
  });

  it("searches from path and prints paths relative to cwd", async () => {
    await touch(dir(), "src/a.ts", 1_000_000);
    await touch(dir(), "other/b.ts", 1_000_000);
    expect(textOf(await globTool.execute({ pattern: "*.ts", path: "src" }, { cwd: dir() }))).toBe("src/a.ts");
  });

  it("includes dotfiles", async () => {
    await touch(dir(), ".github/workflows/ci.yml", 1_000_000);
    expect(textOf(await globTool.execute({ pattern: "**/*.yml" }, { cwd: dir() }))).toBe(
      ".github/workflows/ci.yml",
    );
  });

  it("says when nothing matches", async () => {
    const output = await globTool.execute({ pattern: "**/*.rs" }, { cwd: dir() });
    expect(output.isError).toBe(false);
    expect(textOf(output)).toBe("No files match **/*.rs");
  });

  it("caps the list at 1000 with a note", async () => {
    await Promise.all(
      Array.from({ length: 1003 }, (_, index) => touch(dir(), `many/${index}.txt`, 1_000_000)),
    );
    const text = textOf(await globTool.execute({ pattern: "many/*.txt" }, { cwd: dir() }));
    expect(text.split("\n").filter((line) => line.startsWith("many/"))).toHaveLength(1000);
    expect(text).toMatch(/\.\.\. 3 more files not listed/);
  });

  it("fails for a missing search directory, naming it", async () => {
    const output = await globTool.execute({ pattern: "*", path: "missing" }, { cwd: dir() });
    expect(output.isError).toBe(true);
    expect(textOf(output)).toContain("missing: not found");
  });
});
