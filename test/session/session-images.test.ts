import { createHash } from "node:crypto";
import { mkdir, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ImageBlock, Message } from "../../src/core/index.js";
import { forkSession, imagesFolder, removeSession, tasksFolder } from "../../src/session/index.js";
import { useSessionSandbox } from "../support/session-sandbox.js";
import { tinyPng } from "../support/tiny-images.js";
import { assistant, call, fileLines, warningSink } from "./session-test-helpers.js";

const sandbox = useSessionSandbox();

const png = tinyPng(3, 2, 7);
const sha = createHash("sha256").update(png).digest("hex");
const image: ImageBlock = {
  type: "image",
  mediaType: "image/png",
  data: png.toString("base64"),
  name: "shot.png",
};

function prompt(): Message {
  return { role: "user", content: [{ type: "text", text: "what is wrong here?" }, image] };
}

describe("images in a session", () => {
  it("stores the bytes once in the folder beside the file, named by their sha256; the line names the file", async () => {
    const session = await sandbox.open(sandbox.path);
    await session.appendMessage(prompt());
    await session.appendMessage(assistant("", [call("r1", "read", { path: "shot.png" })]));
    await session.appendMessage({
      role: "tool",
      content: [
        { type: "tool-result", toolCallId: "r1", toolName: "read", content: [image], isError: false },
      ],
    });
    const folder = imagesFolder(sandbox.path);
    expect(folder).toBe(join(sandbox.dir, "s.images"));
    expect(await readdir(folder)).toEqual([`${sha}.png`]);
    expect(await readFile(join(folder, `${sha}.png`))).toEqual(png);
    expect((await stat(join(folder, `${sha}.png`))).mode & 0o777).toBe(0o600);
    const text = await readFile(sandbox.path, "utf8");
    expect(text).not.toContain(image.data);
    const lines = await fileLines(sandbox.path);
    expect(JSON.parse(lines[1] as string).message.content[1]).toEqual({
      type: "image",
      mediaType: "image/png",
      name: "shot.png",
      file: `${sha}.png`,
    });
    // In memory the bytes are there: the next request sends them.
    expect(session.effectiveContext().messages[0]?.content[1]).toMatchObject({ data: image.data });
  });

  it("reads the bytes back on resume, so the resumed context holds the image as the live one did", async () => {
    const first = await sandbox.open(sandbox.path);
    await first.appendMessage(prompt());
    await first.close();
    const resumed = await sandbox.open(sandbox.path);
    expect(resumed.effectiveContext().messages[0]).toEqual({
      role: "user",
      content: [{ type: "text", text: "what is wrong here?" }, image],
    });
  });

  it("opens a session whose image file is gone, with a text block and a warning naming the file", async () => {
    const first = await sandbox.open(sandbox.path);
    await first.appendMessage(prompt());
    await first.close();
    const missing = join(imagesFolder(sandbox.path), `${sha}.png`);
    await rm(missing);
    const sink = warningSink();
    const resumed = await sandbox.open(sandbox.path, sink.onWarning);
    expect(resumed.effectiveContext().messages[0]?.content[1]).toEqual({
      type: "text",
      text: `[image missing: ${missing} (shot.png)]`,
    });
    expect(sink.warnings.join("\n")).toContain(`image ${missing} is missing`);
  });

  it("gives a fork its own copy of the images its lines name, and removing a session removes its images and its commands' logs", async () => {
    const parent = await sandbox.open(sandbox.path);
    await parent.appendMessage(prompt());
    await parent.appendMessage(assistant("a broken layout"));
    await parent.close();
    const forkPath = join(sandbox.dir, "fork.jsonl");
    await forkSession({ parentPath: sandbox.path, path: forkPath, cwd: sandbox.dir });
    await mkdir(tasksFolder(sandbox.path));
    await writeFile(join(tasksFolder(sandbox.path), "bg1.log"), "listening\n");
    expect(tasksFolder(sandbox.path)).toBe(imagesFolder(sandbox.path).replace(/\.images$/, ".tasks"));
    await removeSession(sandbox.path);
    await expect(stat(imagesFolder(sandbox.path))).rejects.toThrow(/ENOENT/);
    await expect(stat(tasksFolder(sandbox.path))).rejects.toThrow(/ENOENT/);
    const fork = await sandbox.open(forkPath);
    expect(fork.effectiveContext().messages[0]?.content[1]).toMatchObject({ data: image.data });
  });
});
