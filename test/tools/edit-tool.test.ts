import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createEditTool } from "../../src/tools/index.js";
import { textOf, useTempDir } from "./temp-dir.js";

const edit = createEditTool();

describe("edit tool", () => {
  const dir = useTempDir();
  const file = () => path.join(dir(), "code.ts");

  it("replaces a unique exact match and shows numbered context", async () => {
    await writeFile(file(), "a\nb\nconst x = 1;\nc\nd\ne\nf\n");
    const output = await edit.execute(
      { path: "code.ts", old_string: "const x = 1;", new_string: "const x = 2;" },
      { cwd: dir() },
    );
    expect(output.isError).toBe(false);
    expect(await readFile(file(), "utf8")).toBe("a\nb\nconst x = 2;\nc\nd\ne\nf\n");
    const text = textOf(output);
    expect(text).toMatch(/^Replaced 1 occurrence in code\.ts:/);
    expect(text).toContain("     3\tconst x = 2;");
    expect(text).toContain("     1\ta");
    expect(text).toContain("     6\te");
    expect(text).not.toContain("\tf");
  });

  it("refuses an ambiguous match without replace_all, giving the count, and leaves the file alone", async () => {
    await writeFile(file(), "foo();\nfoo();\nfoo();\n");
    const output = await edit.execute(
      { path: "code.ts", old_string: "foo()", new_string: "bar()" },
      { cwd: dir() },
    );
    expect(output.isError).toBe(true);
    expect(textOf(output)).toContain("occurs 3 times in code.ts");
    expect(await readFile(file(), "utf8")).toBe("foo();\nfoo();\nfoo();\n");
  });

  it("replaces every occurrence with replace_all", async () => {
    await writeFile(file(), "foo();\nfoo();\nfoo();\n");
    const output = await edit.execute(
      { path: "code.ts", old_string: "foo", new_string: "bar", replace_all: true },
      { cwd: dir() },
    );
    expect(textOf(output)).toMatch(/^Replaced 3 occurrences/);
    expect(await readFile(file(), "utf8")).toBe("bar();\nbar();\nbar();\n");
  });

  it("inserts replacement text literally, without $-pattern expansion", async () => {
    await writeFile(file(), "price = X;\n");
    await edit.execute({ path: "code.ts", old_string: "X", new_string: "$& $1 $$" }, { cwd: dir() });
    expect(await readFile(file(), "utf8")).toBe("price = $& $1 $$;\n");
  });

  it("reports no match, hinting when only whitespace differs", async () => {
    await writeFile(file(), "function f() {\n\treturn 1;\n}\n");
    const near = await edit.execute(
      { path: "code.ts", old_string: "function f() {\n  return 1;", new_string: "x" },
      { cwd: dir() },
    );
    expect(near.isError).toBe(true);
    expect(textOf(near)).toContain("old_string not found in code.ts");
    expect(textOf(near)).toContain("whitespace is ignored");
    const far = await edit.execute(
      { path: "code.ts", old_string: "nothing like it", new_string: "x" },
      { cwd: dir() },
    );
    expect(textOf(far)).toContain("old_string not found in code.ts");
    expect(textOf(far)).not.toContain("whitespace");
  });

  it("matches LF text against a CRLF file and keeps its line endings", async () => {
    await writeFile(file(), "one\r\ntwo\r\nthree\r\n");
    const output = await edit.execute(
      { path: "code.ts", old_string: "one\ntwo", new_string: "1\n2" },
      { cwd: dir() },
    );
    expect(output.isError).toBe(false);
    expect(await readFile(file(), "utf8")).toBe("1\r\n2\r\nthree\r\n");
  });

  it("names the path of a missing file", async () => {
    const output = await edit.execute(
      { path: "missing.ts", old_string: "a", new_string: "b" },
      { cwd: dir() },
    );
    expect(output.isError).toBe(true);
    expect(textOf(output)).toContain("missing.ts: not found");
  });

  it("rejects an empty old_string and identical strings", async () => {
    await writeFile(file(), "abc");
    const empty = await edit.execute({ path: "code.ts", old_string: "", new_string: "x" }, { cwd: dir() });
    expect(empty.isError).toBe(true);
    expect(textOf(empty)).toContain('"old_string"');
    const same = await edit.execute({ path: "code.ts", old_string: "a", new_string: "a" }, { cwd: dir() });
    expect(textOf(same)).toContain("identical");
  });
});
