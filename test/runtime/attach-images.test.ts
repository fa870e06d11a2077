import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { attachFiles, attachImageFiles } from "../../src/runtime/input/attach-files.js";
import { jpegHeader, tinyPng } from "../support/tiny-images.js";
import { useTempDir } from "../support/use-temp-dir.js";

const temp = useTempDir("panto-attach-images-", { resolveLinks: true });

describe("images attached to a prompt", () => {
  it("attaches @PATH of an image as an image block named after the file, the prompt's text unchanged", async () => {
    const png = tinyPng(2, 2);
    await writeFile(path.join(temp(), "shot.png"), png);
    const attached = await attachFiles("what is wrong in @shot.png?", temp());
    expect(attached).toEqual({
      ok: true,
      text: "what is wrong in @shot.png?",
      files: ["shot.png"],
      images: [{ type: "image", mediaType: "image/png", data: png.toString("base64"), name: "shot.png" }],
    });
  });

  it("attaches an image file pasted as a path: absolute, quoted with spaces, or with escaped spaces", async () => {
    await mkdir(path.join(temp(), "my shots"));
    const plain = path.join(temp(), "a.png");
    const spaced = path.join(temp(), "my shots", "b c.jpg");
    await writeFile(plain, tinyPng(2, 2));
    await writeFile(spaced, jpegHeader(10, 20));
    const quoted = await attachFiles(`compare ${plain} and '${spaced}'`, temp());
    expect(quoted.ok && quoted.images.map((image) => [image.name, image.mediaType])).toEqual([
      ["a.png", "image/png"],
      ["b c.jpg", "image/jpeg"],
    ]);
    const escaped = await attachFiles(`${spaced.replace(/ /g, "\\ ")} is broken`, temp());
    expect(escaped.ok && escaped.images.map((image) => image.name)).toEqual(["b c.jpg"]);
  });

  it("leaves a pasted path that is no file, or no image, as plain text", async () => {
    await writeFile(path.join(temp(), "notes.txt"), "hello");
    const attached = await attachFiles(`see /no/such/shot.png and ${path.join(temp(), "notes.txt")}`, temp());
    expect(attached).toMatchObject({ ok: true, images: [], files: [] });
  });

  it("refuses an image attachment over the pixel limit, naming the file and the limit", async () => {
    await writeFile(path.join(temp(), "huge.png"), tinyPng(8001, 1));
    const attached = await attachFiles("@huge.png", temp());
    expect(attached).toEqual({
      ok: false,
      error: expect.stringContaining(
        "@huge.png: huge.png: image is 8001x1 pixels; the limit is 8000 pixels a side",
      ),
    });
    const flag = await attachImageFiles(["huge.png"], temp());
    expect(flag).toEqual({
      ok: false,
      error: expect.stringContaining("--image huge.png: huge.png: image is 8001x1"),
    });
  });
});
