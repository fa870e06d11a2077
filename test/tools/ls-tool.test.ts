import { mkdir, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createLsTool, MAX_LS_ENTRIES } from "../../src/tools/index.js";
import { textOf, useTempDir } from "./temp-dir.js";

const ls = createLsTool();

describe("ls tool", () => {
  const dir = useTempDir();

  it("lists the working directory sorted, directories with a trailing slash, dotfiles included", async () => {
    await writeFile(path.join(dir(), "b.txt"), "");
    await writeFile(path.join(dir(), ".env"), "");
    await mkdir(path.join(dir(), "a-dir"));
    await symlink(path.join(dir(), "a-dir"), path.join(dir(), "link"));
    const output = await ls.execute({}, { cwd: dir() });
    expect(output.isError).toBe(false);
    expect(textOf(output)).toBe(".env\na-dir/\nb.txt\nlink/");
  });

  it("lists a relative path", async () => {
    await mkdir(path.join(dir(), "sub/inner"), { recursive: true });
    expect(textOf(await ls.execute({ path: "sub" }, { cwd: dir() }))).toBe("inner/");
  });

  it("caps the listing and says how many entries were left out", async () => {
    await Promise.all(
      Array.from({ length: MAX_LS_ENTRIES + 5 }, (_, index) =>
        writeFile(path.join(dir(), `f${String(index).padStart(4, "0")}`), ""),
      ),
    );
    const text = textOf(await ls.execute({}, { cwd: dir() }));
    expect(text.split("\n").filter((line) => line.startsWith("f"))).toHaveLength(MAX_LS_ENTRIES);
    expect(text).toMatch(/\.\.\. 5 more entries not listed$/);
  });

  it("fails with the path for a missing directory or a file", async () => {
    const missing = await ls.execute({ path: "nope" }, { cwd: dir() });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toContain("nope: not found");
    await writeFile(path.join(dir(), "file"), "");
    const file = await ls.execute({ path: "file" }, { cwd: dir() });
    expect(textOf(file)).toBe("file is not a directory");
  });
});
