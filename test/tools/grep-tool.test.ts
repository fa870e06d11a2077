import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createGrepTool, MAX_GREP_FILE_BYTES } from "../../src/tools/index.js";
import { textOf, useTempDir } from "./temp-dir.js";

const grep = createGrepTool();

async function put(root: string, relative: string, content: string | Buffer): Promise<void> {
  const file = path.join(root, relative);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, content);
}

describe("grep tool", () => {
  const dir = useTempDir();

  it("prints path:line: text for every match, files in path order", async () => {
    await put(dir(), "src/b.ts", "const a = 1;\nTODO: fix\n");
    await put(dir(), "src/a.ts", "// TODO first\nok\n// TODO second\n");
    const output = await grep.execute({ pattern: "TODO" }, { cwd: dir() });
    expect(output.isError).toBe(false);
    expect(textOf(output)).toBe(
      "src/a.ts:1: // TODO first\nsrc/a.ts:3: // TODO second\nsrc/b.ts:2: TODO: fix",
    );
  });

  it("treats the pattern as a regular expression and honours ignore_case", async () => {
    await put(dir(), "x.txt", "Error 42\nerror 7\nwarning\n");
    expect(textOf(await grep.execute({ pattern: "^Error \\d+$" }, { cwd: dir() }))).toBe("x.txt:1: Error 42");
    const both = await grep.execute({ pattern: "error", ignore_case: true }, { cwd: dir() });
    expect(textOf(both)).toBe("x.txt:1: Error 42\nx.txt:2: error 7");
  });

  it("filters files by glob at any depth and searches a single file path", async () => {
    await put(dir(), "deep/er/code.ts", "needle\n");
    await put(dir(), "deep/notes.md", "needle\n");
    expect(textOf(await grep.execute({ pattern: "needle", glob: "*.ts" }, { cwd: dir() }))).toBe(
      "deep/er/code.ts:1: needle",
    );
    expect(textOf(await grep.execute({ pattern: "needle", path: "deep/notes.md" }, { cwd: dir() }))).toBe(
      "deep/notes.md:1: needle",
    );
  });

  it("skips node_modules, .git, binary files and files over 2 MB", async () => {
    await put(dir(), "node_modules/lib/index.js", "needle\n");
    await put(dir(), ".git/config", "needle\n");
    await put(dir(), "image.bin", Buffer.concat([Buffer.from("needle\n"), Buffer.from([0, 1, 2])]));
    await put(dir(), "huge.txt", `needle\n${"x".repeat(MAX_GREP_FILE_BYTES)}`);
    await put(dir(), "kept.txt", "needle\n");
    expect(textOf(await grep.execute({ pattern: "needle" }, { cwd: dir() }))).toBe("kept.txt:1: needle");
  });

  it("stops at max_results with a note", async () => {
    await put(dir(), "many.txt", Array.from({ length: 50 }, () => "hit").join("\n"));
    const text = textOf(await grep.execute({ pattern: "hit", max_results: 10 }, { cwd: dir() }));
    expect(text.split("\n").filter((line) => line.startsWith("many.txt:"))).toHaveLength(10);
    expect(text).toContain("stopped at 10 matches");
  });

  it("caps at 200 matches by default", async () => {
    await put(dir(), "many.txt", Array.from({ length: 250 }, () => "hit").join("\n"));
    const text = textOf(await grep.execute({ pattern: "hit" }, { cwd: dir() }));
    expect(text.split("\n").filter((line) => line.startsWith("many.txt:"))).toHaveLength(200);
  });

  it("says when nothing matches", async () => {
    await put(dir(), "a.txt", "hay\n");
    const output = await grep.execute({ pattern: "needle" }, { cwd: dir() });
    expect(output.isError).toBe(false);
    expect(textOf(output)).toBe("No matches for needle");
  });

  it("rejects an invalid regular expression, naming the argument", async () => {
    const output = await grep.execute({ pattern: "(unclosed" }, { cwd: dir() });
    expect(output.isError).toBe(true);
    expect(textOf(output)).toContain('"pattern" is not a valid regular expression');
  });

  it("fails for a missing path, naming it", async () => {
    const output = await grep.execute({ pattern: "x", path: "nowhere" }, { cwd: dir() });
    expect(output.isError).toBe(true);
    expect(textOf(output)).toContain("nowhere: not found");
  });

  it("stops when aborted", async () => {
    await put(dir(), "a.txt", "x\n");
    const controller = new AbortController();
    controller.abort();
    const output = await grep.execute({ pattern: "x" }, { cwd: dir(), signal: controller.signal });
    expect(output.isError).toBe(true);
  });
});
