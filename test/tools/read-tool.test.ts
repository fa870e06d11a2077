import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { MAX_IMAGE_BYTES, MAX_IMAGE_SIDE } from "../../src/tools/image-from-bytes.js";
import { createReadTool } from "../../src/tools/index.js";
import { jpegHeader, tinyPng } from "../support/tiny-images.js";
import { textOf, useTempDir } from "./temp-dir.js";

const read = createReadTool();

function lines(count: number): string {
  return Array.from({ length: count }, (_, index) => `line ${index + 1}`).join("\n");
}

describe("read tool", () => {
  const dir = useTempDir();

  it("returns text with cat -n style line numbers, resolving the path against cwd", async () => {
    await writeFile(path.join(dir(), "a.txt"), "alpha\nbeta\n");
    const output = await read.execute({ path: "a.txt" }, { cwd: dir() });
    expect(output.isError).toBe(false);
    expect(textOf(output)).toBe("     1\talpha\n     2\tbeta");
  });

  it("accepts absolute paths", async () => {
    const file = path.join(dir(), "abs.txt");
    await writeFile(file, "x");
    const output = await read.execute({ path: file }, { cwd: "/" });
    expect(textOf(output)).toBe("     1\tx");
  });

  it("reads a window with offset and limit and says how to continue", async () => {
    await writeFile(path.join(dir(), "long.txt"), lines(10));
    const output = await read.execute({ path: "long.txt", offset: 3, limit: 2 }, { cwd: dir() });
    expect(textOf(output)).toBe(
      "     3\tline 3\n     4\tline 4\n\n... 6 more lines; use offset=5 to read more",
    );
  });

  it("stops at 2000 lines by default and reports the rest", async () => {
    await writeFile(path.join(dir(), "big.txt"), lines(2312));
    const text = textOf(await read.execute({ path: "big.txt" }, { cwd: dir() }));
    expect(text).toContain("  2000\tline 2000");
    expect(text).not.toContain("line 2001");
    expect(text).toMatch(/\.\.\. 312 more lines; use offset=2001 to read more$/);
  });

  it("cuts lines longer than 2000 characters with a marker", async () => {
    await writeFile(path.join(dir(), "wide.txt"), "x".repeat(2500));
    const text = textOf(await read.execute({ path: "wide.txt" }, { cwd: dir() }));
    expect(text).toContain(`\t${"x".repeat(2000)}… [line cut: 500 more characters]`);
    expect(text).not.toContain("x".repeat(2001));
  });

  it("handles CRLF files and a leading BOM", async () => {
    await writeFile(path.join(dir(), "crlf.txt"), "\uFEFFone\r\ntwo\r\n");
    expect(textOf(await read.execute({ path: "crlf.txt" }, { cwd: dir() }))).toBe("     1\tone\n     2\ttwo");
  });

  it("says a file is empty rather than returning nothing", async () => {
    await writeFile(path.join(dir(), "empty.txt"), "");
    const output = await read.execute({ path: "empty.txt" }, { cwd: dir() });
    expect(output.isError).toBe(false);
    expect(textOf(output)).toContain("empty");
  });

  it("rejects an offset past the end, giving the line count", async () => {
    await writeFile(path.join(dir(), "short.txt"), lines(3));
    const output = await read.execute({ path: "short.txt", offset: 10 }, { cwd: dir() });
    expect(output.isError).toBe(true);
    expect(textOf(output)).toBe("offset 10 is past the end of short.txt (3 lines)");
  });

  it("returns png, jpg, gif and webp files as image blocks, the type read from the header", async () => {
    const bytes = tinyPng(4, 3);
    await writeFile(path.join(dir(), "pic.png"), bytes);
    await writeFile(path.join(dir(), "photo.JPG"), jpegHeader(640, 480));
    const png = await read.execute({ path: "pic.png" }, { cwd: dir() });
    expect(png.isError).toBe(false);
    expect(png.content[0]).toEqual({
      type: "text",
      text: `Image pic.png (image/png, 4x3, ${bytes.length} bytes)`,
    });
    expect(png.content[1]).toEqual({
      type: "image",
      mediaType: "image/png",
      data: bytes.toString("base64"),
      name: "pic.png",
    });
    const jpg = await read.execute({ path: "photo.JPG" }, { cwd: dir() });
    expect(jpg.content[1]).toMatchObject({ type: "image", mediaType: "image/jpeg" });
  });

  it("refuses an image file that is not an image, or is over the size limits, naming the limit", async () => {
    await writeFile(path.join(dir(), "fake.png"), "not an image at all");
    await writeFile(path.join(dir(), "wide.png"), tinyPng(MAX_IMAGE_SIDE + 1, 1));
    await writeFile(
      path.join(dir(), "big.png"),
      Buffer.concat([tinyPng(2, 2), Buffer.alloc(MAX_IMAGE_BYTES)]),
    );
    expect(textOf(await read.execute({ path: "fake.png" }, { cwd: dir() }))).toBe(
      "fake.png: not a PNG, JPEG, GIF or WebP image",
    );
    expect(textOf(await read.execute({ path: "wide.png" }, { cwd: dir() }))).toContain(
      `wide.png: image is ${MAX_IMAGE_SIDE + 1}x1 pixels; the limit is 8000 pixels a side`,
    );
    expect(textOf(await read.execute({ path: "big.png" }, { cwd: dir() }))).toMatch(
      /big\.png: image is \d+ bytes; the limit is 3932160 bytes \(5 MB once base64-encoded/,
    );
  });

  it("refuses binary files", async () => {
    await writeFile(path.join(dir(), "blob.bin"), Buffer.from([1, 2, 0, 3, 4]));
    const output = await read.execute({ path: "blob.bin" }, { cwd: dir() });
    expect(output.isError).toBe(true);
    expect(textOf(output)).toContain("blob.bin: binary file");
  });

  it("names the path of a missing file", async () => {
    const output = await read.execute({ path: "nope/missing.txt" }, { cwd: dir() });
    expect(output.isError).toBe(true);
    expect(textOf(output)).toBe("File not found: nope/missing.txt");
  });

  it("points at ls when given a directory", async () => {
    await mkdir(path.join(dir(), "sub"));
    const output = await read.execute({ path: "sub" }, { cwd: dir() });
    expect(output.isError).toBe(true);
    expect(textOf(output)).toContain("sub is a directory; use ls");
  });

  it("names the argument that is invalid", async () => {
    const output = await read.execute({ path: "a.txt", offset: "ten" }, { cwd: dir() });
    expect(output.isError).toBe(true);
    expect(textOf(output)).toContain('"offset"');
    const missing = await read.execute({}, { cwd: dir() });
    expect(textOf(missing)).toContain('missing required argument "path"');
    const zero = await read.execute({ path: "a.txt", offset: 0 }, { cwd: dir() });
    expect(textOf(zero)).toMatch(/"offset": .*>=1 \(got 0\)/);
  });
});
