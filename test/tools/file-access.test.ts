import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  createEditTool,
  createReadTool,
  createWriteTool,
  type FileAccess,
  type FileChange,
  firstChangedLine,
  previewFileChange,
} from "../../src/tools/index.js";
import { textOf, useTempDir } from "./temp-dir.js";

/** An editor's buffers: texts by absolute path, with every request recorded. */
function buffers(initial: Record<string, string> = {}) {
  const texts = new Map(Object.entries(initial));
  const requests: string[] = [];
  const files: FileAccess = {
    async readText(file) {
      requests.push(`read ${file}`);
      const text = texts.get(file);
      if (text === undefined) throw new Error("no such buffer");
      return text;
    },
    async writeText(file, content) {
      requests.push(`write ${file}`);
      texts.set(file, content);
    },
  };
  return { files, texts, requests };
}

describe("the file tools through a front-end's file access", () => {
  const dir = useTempDir();

  it("reads the editor's unsaved text, numbered like a local read, and never the disk's", async () => {
    const file = path.join(dir(), "a.ts");
    await writeFile(file, "on disk\n");
    const { files, requests } = buffers({ [file]: "unsaved one\r\nunsaved two\nthree\n" });
    const output = await createReadTool().execute({ path: "a.ts", offset: 2 }, { cwd: dir(), files });
    expect(output.isError).toBe(false);
    expect(textOf(output)).toBe("     2\tunsaved two\n     3\tthree");
    expect(requests).toEqual([`read ${file}`]);
  });

  it("says a file is missing when neither the disk nor the editor has it", async () => {
    const { files } = buffers();
    const output = await createReadTool().execute({ path: "gone.ts" }, { cwd: dir(), files });
    expect(output.isError).toBe(true);
    expect(textOf(output)).toBe("File not found: gone.ts");
  });

  it("writes and edits in the editor, leaving the disk alone, and reports the real change", async () => {
    const file = path.join(dir(), "b.ts");
    await writeFile(file, "disk\n");
    const { files, texts } = buffers({ [file]: "one\ntwo\nthree\n" });
    const changes: FileChange[] = [];
    const context = { cwd: dir(), files, onFileChange: (change: FileChange) => changes.push(change) };
    const edited = await createEditTool().execute(
      { path: "b.ts", old_string: "two", new_string: "2" },
      context,
    );
    expect(edited.isError).toBe(false);
    expect(texts.get(file)).toBe("one\n2\nthree\n");
    const written = await createWriteTool().execute({ path: "c.ts", content: "new\n" }, context);
    expect(written.isError).toBe(false);
    expect(texts.get(path.join(dir(), "c.ts"))).toBe("new\n");
    expect(await readFile(file, "utf8")).toBe("disk\n");
    expect(changes).toEqual([
      { path: file, oldText: "one\ntwo\nthree\n", newText: "one\n2\nthree\n", line: 2 },
      { path: path.join(dir(), "c.ts"), oldText: undefined, newText: "new\n", line: 1 },
    ]);
  });

  it("reports a local write's change with the text it replaced", async () => {
    const file = path.join(dir(), "d.ts");
    await writeFile(file, "keep\nold\n");
    const changes: FileChange[] = [];
    await createWriteTool().execute(
      { path: "d.ts", content: "keep\nnew\n" },
      { cwd: dir(), onFileChange: (change) => changes.push(change) },
    );
    expect(changes).toEqual([{ path: file, oldText: "keep\nold\n", newText: "keep\nnew\n", line: 2 }]);
  });

  it("previews an edit's whole-file change before it runs, and nothing for an edit that cannot apply", async () => {
    const file = path.join(dir(), "e.ts");
    await writeFile(file, "a\nb\nc\n");
    const call = (args: Record<string, unknown>) => ({
      type: "tool-call" as const,
      id: "c",
      name: "edit",
      arguments: args,
    });
    expect(await previewFileChange(call({ path: "e.ts", old_string: "c", new_string: "C" }), dir())).toEqual({
      path: file,
      oldText: "a\nb\nc\n",
      newText: "a\nb\nC\n",
      line: 3,
    });
    expect(await previewFileChange(call({ path: "e.ts", old_string: "zzz", new_string: "y" }), dir())).toBe(
      undefined,
    );
    expect(await readFile(file, "utf8")).toBe("a\nb\nc\n");
  });
});

describe("firstChangedLine", () => {
  it("is the line where an inserted line first differs (the end of the last line when appended)", () => {
    fc.assert(
      fc.property(fc.array(fc.string(), { maxLength: 6 }), fc.nat(6), fc.string(), (lines, at, extra) => {
        const before = lines.join("\n");
        const cut = Math.min(at, lines.length);
        const after = [...lines.slice(0, cut), `${extra}\u0000`, ...lines.slice(cut)].join("\n");
        // Appending after the last line differs first at that line's end (the new line break).
        const expected = cut === lines.length && lines.length > 0 ? cut : cut + 1;
        expect(firstChangedLine(before, after)).toBe(expected);
        expect(firstChangedLine(before, before)).toBe(1);
      }),
    );
  });
});
